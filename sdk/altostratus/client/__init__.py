"""The client of the service's API: `Client`, its settings, its models and its errors.

Names load on first use, so that importing one part (the errors, say) does not import httpx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from altostratus.client._client import Client
    from altostratus.client._settings import Settings, resolve_settings
    from altostratus.client.errors import (
        AltostratusError,
        APIConnectionError,
        APIError,
        APITimeoutError,
        AuthenticationError,
        BadRequestError,
        ConfigurationError,
        ConflictError,
        NotFoundError,
        OutcomeUnknownError,
        PermissionDeniedError,
        QuotaExceededError,
        RateLimitError,
        ServerError,
    )
    from altostratus.client.models import (
        Firewall,
        FirewallCreated,
        FirewallRule,
        LoadBalancer,
        LoadBalancerBackend,
        Network,
        NetworkCreated,
        NetworkUpdated,
        ObjectStore,
        ObjectStoreCredential,
        ObjectStoreOwner,
        Quota,
        ReservedIp,
        ReservedIpAssignment,
        Webhook,
        WebhookCreated,
    )

_HOMES = {
    "APIConnectionError": "altostratus.client.errors",
    "APIError": "altostratus.client.errors",
    "APITimeoutError": "altostratus.client.errors",
    "AltostratusError": "altostratus.client.errors",
    "AuthenticationError": "altostratus.client.errors",
    "BadRequestError": "altostratus.client.errors",
    "Client": "altostratus.client._client",
    "ConfigurationError": "altostratus.client.errors",
    "ConflictError": "altostratus.client.errors",
    "Firewall": "altostratus.client.models",
    "FirewallCreated": "altostratus.client.models",
    "FirewallRule": "altostratus.client.models",
    "LoadBalancer": "altostratus.client.models",
    "LoadBalancerBackend": "altostratus.client.models",
    "Network": "altostratus.client.models",
    "NetworkCreated": "altostratus.client.models",
    "NetworkUpdated": "altostratus.client.models",
    "NotFoundError": "altostratus.client.errors",
    "ObjectStore": "altostratus.client.models",
    "ObjectStoreCredential": "altostratus.client.models",
    "ObjectStoreOwner": "altostratus.client.models",
    "OutcomeUnknownError": "altostratus.client.errors",
    "PermissionDeniedError": "altostratus.client.errors",
    "Quota": "altostratus.client.models",
    "QuotaExceededError": "altostratus.client.errors",
    "RateLimitError": "altostratus.client.errors",
    "ReservedIp": "altostratus.client.models",
    "ReservedIpAssignment": "altostratus.client.models",
    "ServerError": "altostratus.client.errors",
    "Settings": "altostratus.client._settings",
    "Webhook": "altostratus.client.models",
    "WebhookCreated": "altostratus.client.models",
    "resolve_settings": "altostratus.client._settings",
}

__all__ = [
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AltostratusError",
    "AuthenticationError",
    "BadRequestError",
    "Client",
    "ConfigurationError",
    "ConflictError",
    "Firewall",
    "FirewallCreated",
    "FirewallRule",
    "LoadBalancer",
    "LoadBalancerBackend",
    "Network",
    "NetworkCreated",
    "NetworkUpdated",
    "NotFoundError",
    "ObjectStore",
    "ObjectStoreCredential",
    "ObjectStoreOwner",
    "OutcomeUnknownError",
    "PermissionDeniedError",
    "Quota",
    "QuotaExceededError",
    "RateLimitError",
    "ReservedIp",
    "ReservedIpAssignment",
    "ServerError",
    "Settings",
    "Webhook",
    "WebhookCreated",
    "resolve_settings",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'altostratus.client' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
