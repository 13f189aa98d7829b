"""The eight resources through the provider plugin (``pulumi-resource-altostratus``).

``import altostratus.plugin as altostratus`` gives the same classes as ``import altostratus`` (the
same typed constructors, ``<Name>Args``, ``get`` and ``adopt``; each class here subclasses the
dynamic one), registered as ``altostratus:index:<Name>`` through the plugin instead of as
dynamic resources, the lookups answered by the plugin (Invoke of ``altostratus:index:get<Name>``),
and ``Provider``, an explicit provider instance. A resource of ``altostratus`` itself given an
``altostratus.Provider`` in its options goes through the plugin too. See docs/plugin.md.
"""

from __future__ import annotations

from altostratus import lookups, providers
from altostratus.lookups import (
    GetFirewallResult,
    GetLoadBalancerResult,
    GetNetworkResult,
    GetObjectStoreCredentialResult,
    GetObjectStoreResult,
    GetRegionsResult,
    GetReservedIpResult,
    GetWebhookResult,
    NoSingleMatchError,
)
from altostratus.plugin.front import through_invoke
from altostratus.plugin.provider import Provider
from altostratus.providers import (
    FirewallArgs,
    FirewallInlineRuleArgs,
    FirewallInlineRuleArgsDict,
    FirewallRuleArgs,
    LoadBalancerArgs,
    LoadBalancerBackendArgs,
    LoadBalancerBackendArgsDict,
    NetworkArgs,
    ObjectStoreArgs,
    ObjectStoreCredentialArgs,
    ProviderError,
    ReservedIpArgs,
    WebhookArgs,
)


class Network(providers.Network):
    __doc__ = providers.Network.__doc__
    _through_plugin = True


class Firewall(providers.Firewall):
    __doc__ = providers.Firewall.__doc__
    _through_plugin = True


class FirewallRule(providers.FirewallRule):
    __doc__ = providers.FirewallRule.__doc__
    _through_plugin = True


class LoadBalancer(providers.LoadBalancer):
    __doc__ = providers.LoadBalancer.__doc__
    _through_plugin = True


class ReservedIp(providers.ReservedIp):
    __doc__ = providers.ReservedIp.__doc__
    _through_plugin = True


class ObjectStore(providers.ObjectStore):
    __doc__ = providers.ObjectStore.__doc__
    _through_plugin = True


class ObjectStoreCredential(providers.ObjectStoreCredential):
    __doc__ = providers.ObjectStoreCredential.__doc__
    _through_plugin = True


class Webhook(providers.Webhook):
    __doc__ = providers.Webhook.__doc__
    _through_plugin = True


get_network = through_invoke(lookups.get_network)
get_firewall = through_invoke(lookups.get_firewall)
get_load_balancer = through_invoke(lookups.get_load_balancer)
get_reserved_ip = through_invoke(lookups.get_reserved_ip)
get_object_store = through_invoke(lookups.get_object_store)
get_object_store_credential = through_invoke(lookups.get_object_store_credential)
get_webhook = through_invoke(lookups.get_webhook)
get_quota = through_invoke(lookups.get_quota)
get_regions = through_invoke(lookups.get_regions)

__all__ = [
    "Firewall",
    "FirewallArgs",
    "FirewallInlineRuleArgs",
    "FirewallInlineRuleArgsDict",
    "FirewallRule",
    "FirewallRuleArgs",
    "GetFirewallResult",
    "GetLoadBalancerResult",
    "GetNetworkResult",
    "GetObjectStoreCredentialResult",
    "GetObjectStoreResult",
    "GetRegionsResult",
    "GetReservedIpResult",
    "GetWebhookResult",
    "LoadBalancer",
    "LoadBalancerArgs",
    "LoadBalancerBackendArgs",
    "LoadBalancerBackendArgsDict",
    "Network",
    "NetworkArgs",
    "NoSingleMatchError",
    "ObjectStore",
    "ObjectStoreArgs",
    "ObjectStoreCredential",
    "ObjectStoreCredentialArgs",
    "Provider",
    "ProviderError",
    "ReservedIp",
    "ReservedIpArgs",
    "Webhook",
    "WebhookArgs",
    "get_firewall",
    "get_load_balancer",
    "get_network",
    "get_object_store",
    "get_object_store_credential",
    "get_quota",
    "get_regions",
    "get_reserved_ip",
    "get_webhook",
]
