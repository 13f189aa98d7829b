"""/v2/regions (and /v2/vpc/regions): the regions the account can use, its default marked."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.call import Call, RouteTable
from altostratus.emulator.vocabulary import DEFAULT_REGION, REGION_PLACES

ROUTES = RouteTable(networking=True, regional=False)


@ROUTES.add("GET", "/regions", "List regions", "[Region]")
def list_regions(call: Call) -> list[dict[str, Any]]:
    """Every region; ``default`` marks the account's default (where calls without a region go)."""
    return [
        {"code": code, "name": name, "country": country, "default": code == DEFAULT_REGION}
        for code, (name, country) in REGION_PLACES.items()
    ]
