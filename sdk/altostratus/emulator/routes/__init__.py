"""The service's route table: one module per collection.

Every PATCH operation also answers PUT (unless its path has a PUT of its own): the spec says
PATCH for object store and credential updates, and the service's official clients send PUT.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

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


def with_put_for_patch(routes: Iterable[Route]) -> list[Route]:
    """``routes``, each PATCH followed by the same operation under PUT."""
    routes = list(routes)
    taken = {(route.method, route.path) for route in routes}
    result = []
    for route in routes:
        result.append(route)
        if route.method == "PATCH" and ("PUT", route.path) not in taken:
            result.append(dataclasses.replace(route, method="PUT"))
    return result


ROUTES: list[Route] = with_put_for_patch(
    [
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
)
