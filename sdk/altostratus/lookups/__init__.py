"""Lookups: what exists outside the stack, read into a program, as Pulumi's generated SDKs read
it (``get_network(label="app")``, and ``get_network_output(...)`` taking Inputs and giving an
Output). None or several matches raise ``NoSingleMatchError``; see ``_find`` for the
configuration they read."""

from __future__ import annotations

from altostratus.lookups._find import LookupResult, NoSingleMatchError
from altostratus.lookups.account import (
    GetRegionsResult,
    GetWebhookResult,
    get_quota,
    get_quota_output,
    get_regions,
    get_regions_output,
    get_webhook,
    get_webhook_output,
)
from altostratus.lookups.networking import (
    GetFirewallResult,
    GetLoadBalancerResult,
    GetNetworkResult,
    GetReservedIpResult,
    get_firewall,
    get_firewall_output,
    get_load_balancer,
    get_load_balancer_output,
    get_network,
    get_network_output,
    get_reserved_ip,
    get_reserved_ip_output,
)
from altostratus.lookups.storage import (
    GetObjectStoreCredentialResult,
    GetObjectStoreResult,
    get_object_store,
    get_object_store_credential,
    get_object_store_credential_output,
    get_object_store_output,
)

__all__ = [
    "GetFirewallResult",
    "GetLoadBalancerResult",
    "GetNetworkResult",
    "GetObjectStoreCredentialResult",
    "GetObjectStoreResult",
    "GetRegionsResult",
    "GetReservedIpResult",
    "GetWebhookResult",
    "LookupResult",
    "NoSingleMatchError",
    "get_firewall",
    "get_firewall_output",
    "get_load_balancer",
    "get_load_balancer_output",
    "get_network",
    "get_network_output",
    "get_object_store",
    "get_object_store_credential",
    "get_object_store_credential_output",
    "get_object_store_output",
    "get_quota",
    "get_quota_output",
    "get_regions",
    "get_regions_output",
    "get_reserved_ip",
    "get_reserved_ip_output",
    "get_webhook",
    "get_webhook_output",
]
