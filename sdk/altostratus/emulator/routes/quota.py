"""/v2/quota: the account's limits and its usage, counted from live resources."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.routes.call import Call, RouteTable
from altostratus.emulator.state.accounts import describe_quota

ROUTES = RouteTable(regional=False)


@ROUTES.add("GET", "/quota", "The account's quota", "Quota", query=("name",))
def get_quota(call: Call) -> dict[str, Any]:
    """``name`` selects another account only for system accounts, and the emulator has none."""
    return describe_quota(call.state, call.account)
