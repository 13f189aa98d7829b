"""Pulumi resources, an API client and a local emulator for the service's API.

``import altostratus as alto`` gives the eight resources and their argument classes, the lookups
(``get_network``, ...), the client and its errors, and ``Provider``, an instance of the provider
plugin (``altostratus.plugin`` has the resources through the plugin). They load on first use, so
that ``python -m altostratus.emulator`` and the command line do not pay for Pulumi's import. The
block below is the one list of the public names (see ``_exports``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from altostratus._exports import lazy_exports

if TYPE_CHECKING:
    from altostratus._version import __version__ as __version__
    from altostratus.client import AltostratusError as AltostratusError
    from altostratus.client import APIConnectionError as APIConnectionError
    from altostratus.client import APIError as APIError
    from altostratus.client import APITimeoutError as APITimeoutError
    from altostratus.client import AuthenticationError as AuthenticationError
    from altostratus.client import BadRequestError as BadRequestError
    from altostratus.client import Client as Client
    from altostratus.client import ConfigurationError as ConfigurationError
    from altostratus.client import ConflictError as ConflictError
    from altostratus.client import InUseError as InUseError
    from altostratus.client import InvalidResponseError as InvalidResponseError
    from altostratus.client import NotFoundError as NotFoundError
    from altostratus.client import OutcomeUnknownError as OutcomeUnknownError
    from altostratus.client import PermissionDeniedError as PermissionDeniedError
    from altostratus.client import QuotaExceededError as QuotaExceededError
    from altostratus.client import RateLimitError as RateLimitError
    from altostratus.client import ServerError as ServerError
    from altostratus.lookups import GetFirewallResult as GetFirewallResult
    from altostratus.lookups import GetLoadBalancerResult as GetLoadBalancerResult
    from altostratus.lookups import GetNetworkResult as GetNetworkResult
    from altostratus.lookups import GetObjectStoreCredentialResult as GetObjectStoreCredentialResult
    from altostratus.lookups import GetObjectStoreResult as GetObjectStoreResult
    from altostratus.lookups import GetRegionsResult as GetRegionsResult
    from altostratus.lookups import GetReservedIpResult as GetReservedIpResult
    from altostratus.lookups import GetWebhookResult as GetWebhookResult
    from altostratus.lookups import NoSingleMatchError as NoSingleMatchError
    from altostratus.lookups import get_firewall as get_firewall
    from altostratus.lookups import get_firewall_output as get_firewall_output
    from altostratus.lookups import get_load_balancer as get_load_balancer
    from altostratus.lookups import get_load_balancer_output as get_load_balancer_output
    from altostratus.lookups import get_network as get_network
    from altostratus.lookups import get_network_output as get_network_output
    from altostratus.lookups import get_object_store as get_object_store
    from altostratus.lookups import get_object_store_credential as get_object_store_credential
    from altostratus.lookups import (
        get_object_store_credential_output as get_object_store_credential_output,
    )
    from altostratus.lookups import get_object_store_output as get_object_store_output
    from altostratus.lookups import get_quota as get_quota
    from altostratus.lookups import get_quota_output as get_quota_output
    from altostratus.lookups import get_regions as get_regions
    from altostratus.lookups import get_regions_output as get_regions_output
    from altostratus.lookups import get_reserved_ip as get_reserved_ip
    from altostratus.lookups import get_reserved_ip_output as get_reserved_ip_output
    from altostratus.lookups import get_webhook as get_webhook
    from altostratus.lookups import get_webhook_output as get_webhook_output
    from altostratus.plugin.provider import Provider as Provider
    from altostratus.providers import Firewall as Firewall
    from altostratus.providers import FirewallArgs as FirewallArgs
    from altostratus.providers import FirewallInlineRuleArgs as FirewallInlineRuleArgs
    from altostratus.providers import FirewallInlineRuleArgsDict as FirewallInlineRuleArgsDict
    from altostratus.providers import FirewallRule as FirewallRule
    from altostratus.providers import FirewallRuleArgs as FirewallRuleArgs
    from altostratus.providers import LoadBalancer as LoadBalancer
    from altostratus.providers import LoadBalancerArgs as LoadBalancerArgs
    from altostratus.providers import LoadBalancerBackendArgs as LoadBalancerBackendArgs
    from altostratus.providers import LoadBalancerBackendArgsDict as LoadBalancerBackendArgsDict
    from altostratus.providers import Network as Network
    from altostratus.providers import NetworkArgs as NetworkArgs
    from altostratus.providers import ObjectStore as ObjectStore
    from altostratus.providers import ObjectStoreArgs as ObjectStoreArgs
    from altostratus.providers import ObjectStoreCredential as ObjectStoreCredential
    from altostratus.providers import ObjectStoreCredentialArgs as ObjectStoreCredentialArgs
    from altostratus.providers import ProviderError as ProviderError
    from altostratus.providers import ReservedIp as ReservedIp
    from altostratus.providers import ReservedIpArgs as ReservedIpArgs
    from altostratus.providers import Webhook as Webhook
    from altostratus.providers import WebhookArgs as WebhookArgs
else:
    __all__, __getattr__, __dir__ = lazy_exports(globals())
