"""/v2/regions (and /v2/vpc/regions): the regions the account can use, its default marked."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.routes.call import Call, RouteTable
from altostratus.emulator.vocabulary import DEFAULT_REGION

ROUTES = RouteTable(networking=True, regional=False)


@ROUTES.add("GET", "/regions", "List regions", "[Region]")
def list_regions(call: Call) -> list[dict[str, Any]]:
    """Every region, with what it offers; ``default`` marks the account's default (where calls
    without a region go)."""
    regions = call.state.settings.regions.values()
    return [region.describe(region.code == DEFAULT_REGION) for region in regions]
