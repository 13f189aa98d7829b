"""/api/v1/whoami: the key's identity, roles and organizations (``cli whoami``)."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.routes.call import Call, RouteTable
from altostratus.emulator.state import organizations
from altostratus.emulator.state.accounts import describe_quota

ROUTES = RouteTable(regional=False, prefix="/api/v1")


@ROUTES.add("GET", "/whoami", "The key's user, roles and organizations", "Identity")
def whoami(call: Call) -> dict[str, Any]:
    """An emulator account has one user, its owner, and one organization."""
    account = call.account
    return {
        "id": account.user_id,
        "email": describe_quota(call.state, account)["default_user_email_address"],
        "account_id": account.id,
        "roles": ["owner"],
        "organizations": [{"name": organizations.organization(account), "role": "owner"}],
    }
