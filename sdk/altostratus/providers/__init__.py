"""The eight Pulumi resources of the service, each a dynamic resource with its own provider.

Type tokens are ``pulumi-python:dynamic/altostratus:<Name>``. Providers pickle by reference to
these modules, so the module paths are part of every stack's state and stay stable.
"""

from __future__ import annotations

import altostratus._pulumi_hints  # noqa: F401  (get_type_hints on Pulumi's classes and ours)
from altostratus.providers._base import ProviderError
from altostratus.providers._inline_rules import FirewallInlineRuleArgs, FirewallInlineRuleArgsDict
from altostratus.providers.firewall import Firewall, FirewallArgs
from altostratus.providers.firewall_rule import FirewallRule, FirewallRuleArgs
from altostratus.providers.load_balancer import (
    LoadBalancer,
    LoadBalancerArgs,
    LoadBalancerBackendArgs,
    LoadBalancerBackendArgsDict,
)
from altostratus.providers.network import Network, NetworkArgs
from altostratus.providers.object_store import ObjectStore, ObjectStoreArgs
from altostratus.providers.object_store_credential import (
    ObjectStoreCredential,
    ObjectStoreCredentialArgs,
)
from altostratus.providers.reserved_ip import ReservedIp, ReservedIpArgs
from altostratus.providers.webhook import Webhook, WebhookArgs

__all__ = [
    "Firewall",
    "FirewallArgs",
    "FirewallInlineRuleArgs",
    "FirewallInlineRuleArgsDict",
    "FirewallRule",
    "FirewallRuleArgs",
    "LoadBalancer",
    "LoadBalancerArgs",
    "LoadBalancerBackendArgs",
    "LoadBalancerBackendArgsDict",
    "Network",
    "NetworkArgs",
    "ObjectStore",
    "ObjectStoreArgs",
    "ObjectStoreCredential",
    "ObjectStoreCredentialArgs",
    "ProviderError",
    "ReservedIp",
    "ReservedIpArgs",
    "Webhook",
    "WebhookArgs",
]
