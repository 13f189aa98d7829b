"""Pulumi resources, an API client and a local emulator for the service's API.

``import altostratus as alto`` gives the eight resources and their argument classes, the client
and its errors. They load on first use, so that ``python -m altostratus.emulator`` and the command
line do not pay for Pulumi's import.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from altostratus._version import __version__

if TYPE_CHECKING:
    from altostratus.client import (
        AltostratusError,
        APIConnectionError,
        APIError,
        APITimeoutError,
        AuthenticationError,
        BadRequestError,
        Client,
        ConfigurationError,
        ConflictError,
        NotFoundError,
        OutcomeUnknownError,
        PermissionDeniedError,
        QuotaExceededError,
        RateLimitError,
        ServerError,
    )
    from altostratus.providers import (
        Firewall,
        FirewallArgs,
        FirewallRule,
        FirewallRuleArgs,
        LoadBalancer,
        LoadBalancerArgs,
        LoadBalancerBackendArgs,
        Network,
        NetworkArgs,
        ObjectStore,
        ObjectStoreArgs,
        ObjectStoreCredential,
        ObjectStoreCredentialArgs,
        ReservedIp,
        ReservedIpArgs,
        Webhook,
        WebhookArgs,
    )

_RESOURCES = (
    "Firewall",
    "FirewallArgs",
    "FirewallRule",
    "FirewallRuleArgs",
    "LoadBalancer",
    "LoadBalancerArgs",
    "LoadBalancerBackendArgs",
    "Network",
    "NetworkArgs",
    "ObjectStore",
    "ObjectStoreArgs",
    "ObjectStoreCredential",
    "ObjectStoreCredentialArgs",
    "ReservedIp",
    "ReservedIpArgs",
    "Webhook",
    "WebhookArgs",
)
_CLIENT = (
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AltostratusError",
    "AuthenticationError",
    "BadRequestError",
    "Client",
    "ConfigurationError",
    "ConflictError",
    "NotFoundError",
    "OutcomeUnknownError",
    "PermissionDeniedError",
    "QuotaExceededError",
    "RateLimitError",
    "ServerError",
)
_HOME = {
    **dict.fromkeys(_RESOURCES, "altostratus.providers"),
    **dict.fromkeys(_CLIENT, "altostratus.client"),
}

__all__ = ["__version__", *_RESOURCES, *_CLIENT]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'altostratus' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
