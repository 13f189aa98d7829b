"""The client of the service's API: `Client`, its settings, its models and its errors.

Names load on first use, so that importing one part (the errors, say) does not import httpx. The
block below is the one list of the public names (see ``altostratus._exports``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from altostratus._exports import lazy_exports

if TYPE_CHECKING:
    from altostratus.client._client import Client as Client
    from altostratus.client._settings import Settings as Settings
    from altostratus.client._settings import resolve_settings as resolve_settings
    from altostratus.client.errors import AltostratusError as AltostratusError
    from altostratus.client.errors import APIConnectionError as APIConnectionError
    from altostratus.client.errors import APIError as APIError
    from altostratus.client.errors import APITimeoutError as APITimeoutError
    from altostratus.client.errors import AuthenticationError as AuthenticationError
    from altostratus.client.errors import BadRequestError as BadRequestError
    from altostratus.client.errors import ConfigurationError as ConfigurationError
    from altostratus.client.errors import ConflictError as ConflictError
    from altostratus.client.errors import InUseError as InUseError
    from altostratus.client.errors import InvalidResponseError as InvalidResponseError
    from altostratus.client.errors import NotFoundError as NotFoundError
    from altostratus.client.errors import OutcomeUnknownError as OutcomeUnknownError
    from altostratus.client.errors import PermissionDeniedError as PermissionDeniedError
    from altostratus.client.errors import QuotaExceededError as QuotaExceededError
    from altostratus.client.errors import RateLimitError as RateLimitError
    from altostratus.client.errors import ServerError as ServerError
    from altostratus.client.models import App as App
    from altostratus.client.models import AppBuild as AppBuild
    from altostratus.client.models import AppEnvironment as AppEnvironment
    from altostratus.client.models import ApplicationDeployment as ApplicationDeployment
    from altostratus.client.models import Cluster as Cluster
    from altostratus.client.models import DeviceLogin as DeviceLogin
    from altostratus.client.models import Firewall as Firewall
    from altostratus.client.models import FirewallCreated as FirewallCreated
    from altostratus.client.models import FirewallRule as FirewallRule
    from altostratus.client.models import FirewallUpdated as FirewallUpdated
    from altostratus.client.models import Identity as Identity
    from altostratus.client.models import LoadBalancer as LoadBalancer
    from altostratus.client.models import LoadBalancerBackend as LoadBalancerBackend
    from altostratus.client.models import LoadBalancerBackendRecord as LoadBalancerBackendRecord
    from altostratus.client.models import LoginSession as LoginSession
    from altostratus.client.models import LogLine as LogLine
    from altostratus.client.models import Network as Network
    from altostratus.client.models import NetworkCreated as NetworkCreated
    from altostratus.client.models import NetworkUpdated as NetworkUpdated
    from altostratus.client.models import ObjectStore as ObjectStore
    from altostratus.client.models import ObjectStoreCredential as ObjectStoreCredential
    from altostratus.client.models import ObjectStoreOwner as ObjectStoreOwner
    from altostratus.client.models import ObjectStoreStats as ObjectStoreStats
    from altostratus.client.models import Organization as Organization
    from altostratus.client.models import PlatformApplication as PlatformApplication
    from altostratus.client.models import PlatformEnvironment as PlatformEnvironment
    from altostratus.client.models import Quota as Quota
    from altostratus.client.models import Region as Region
    from altostratus.client.models import ReservedIp as ReservedIp
    from altostratus.client.models import ReservedIpAssignment as ReservedIpAssignment
    from altostratus.client.models import Webhook as Webhook
    from altostratus.client.models import WebhookCreated as WebhookCreated
else:
    __all__, __getattr__, __dir__ = lazy_exports(globals())
