"""The service's route table: one module per collection."""

from __future__ import annotations

from altostratus.emulator.call import Route
from altostratus.emulator.routes import (
    credentials,
    firewalls,
    load_balancers,
    networks,
    object_stores,
    quota,
    regions,
    reserved_ips,
    webhooks,
)

ROUTES: list[Route] = [
    *networks.ROUTES,
    *firewalls.ROUTES,
    *load_balancers.ROUTES,
    *reserved_ips.ROUTES,
    *object_stores.ROUTES,
    *credentials.ROUTES,
    *webhooks.ROUTES,
    *quota.ROUTES,
    *regions.ROUTES,
]
