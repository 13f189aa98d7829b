"""Organizations, their namespaces and their managed clusters, as the ``/api/v1`` platform
endpoints see them.

Each account is one organization, named after the account (``default`` for the emulator's own):
the platform's ``{org}`` and its ``{ns}`` (the namespace its environments, applications and
deployments live in) are that name. Another name is a 404, as a record of another account is.
The managed clusters are the regions': one per region the emulator serves, named
``<region>-managed`` (``lon1-managed``), active and never changing, so no store keeps them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from altostratus.emulator.errors import NotFound

if TYPE_CHECKING:
    from altostratus.emulator.state import State
    from altostratus.emulator.state.accounts import Account

KUBERNETES_VERSION = "1.30"


def organization(account: Account) -> str:
    """The account's organization: its name, lower case, anything but letters, digits and
    ``-`` made ``-``."""
    return re.sub(r"[^a-z0-9-]+", "-", account.name.lower()).strip("-") or account.id


def require(account: Account, name: str, what: str = "organization") -> str:
    """``name`` when it is the account's organization; else a 404 naming it."""
    if name != organization(account):
        raise NotFound(
            f"No {what} {name!r} for this API key (its organization is {organization(account)!r})",
            "organization_not_found",
        )
    return name


def clusters(state: State, account: Account) -> list[dict[str, Any]]:
    """The organization's managed clusters: one per region."""
    return [
        {
            "name": cluster_name(code),
            "region": code,
            "organization": organization(account),
            "kubernetes_version": KUBERNETES_VERSION,
            "status": "active",
        }
        for code in state.settings.regions
    ]


def cluster_name(region: str) -> str:
    return f"{region.lower()}-managed"


def cluster_names(state: State) -> tuple[str, ...]:
    return tuple(cluster_name(code) for code in state.settings.regions)
