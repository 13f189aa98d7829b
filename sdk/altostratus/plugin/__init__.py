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
from altostratus.plugin.front import output_form, through_invoke
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
get_network_output = output_form(get_network, lookups.get_network_output)
get_firewall_output = output_form(get_firewall, lookups.get_firewall_output)
get_load_balancer_output = output_form(get_load_balancer, lookups.get_load_balancer_output)
get_reserved_ip_output = output_form(get_reserved_ip, lookups.get_reserved_ip_output)
get_object_store_output = output_form(get_object_store, lookups.get_object_store_output)
get_object_store_credential_output = output_form(
    get_object_store_credential, lookups.get_object_store_credential_output
)
get_webhook_output = output_form(get_webhook, lookups.get_webhook_output)
get_quota_output = output_form(get_quota, lookups.get_quota_output)
get_regions_output = output_form(get_regions, lookups.get_regions_output)

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
