"""The eight resources through the provider plugin (``pulumi-resource-altostratus``).

``import altostratus.plugin as altostratus`` gives the same classes as ``import altostratus`` (the
same typed constructors, ``<Name>Args``, ``get`` and ``adopt``; each class here subclasses the
dynamic one), registered as ``altostratus:index:<Name>`` through the plugin instead of as
dynamic resources, the lookups answered by the plugin (Invoke of ``altostratus:index:get<Name>``),
and ``Provider``, an explicit provider instance. A resource of ``altostratus`` itself given an
``altostratus.Provider`` in its options goes through the plugin too. See docs/plugin.md.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from altostratus import providers
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


#: The lookups and their results (the names of ``__all__`` not defined above) load on first use,
#: as ``altostratus`` loads them: a program that declares resources only does not import the
#: lookups, the client's models and pydantic.
if TYPE_CHECKING:
    from altostratus import lookups
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


def __getattr__(name: str) -> Any:
    """A lookup through the plugin (``get_network``, ``get_network_output``) or a lookup's result
    class, made on first use."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from altostratus import lookups

    if name.endswith("_output"):
        plain = getattr(sys.modules[__name__], name.removesuffix("_output"))
        value = output_form(plain, getattr(lookups, name))
    elif name.startswith("get_"):
        value = through_invoke(getattr(lookups, name))
    else:
        value = getattr(lookups, name)
    globals()[name] = value
    return value


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


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
