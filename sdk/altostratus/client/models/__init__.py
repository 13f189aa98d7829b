"""One pydantic model per record of the API."""

from __future__ import annotations

from altostratus.client.models.app import (
    App,
    AppBuild,
    AppEnvironment,
    DeviceLogin,
    Identity,
    LoginSession,
    LogLine,
    Organization,
)
from altostratus.client.models.firewall import Firewall, FirewallCreated, FirewallUpdated
from altostratus.client.models.firewall_rule import FirewallRule
from altostratus.client.models.load_balancer import (
    LoadBalancer,
    LoadBalancerBackend,
    LoadBalancerBackendRecord,
)
from altostratus.client.models.network import Network, NetworkCreated, NetworkUpdated
from altostratus.client.models.object_store import ObjectStore, ObjectStoreOwner, ObjectStoreStats
from altostratus.client.models.object_store_credential import ObjectStoreCredential
from altostratus.client.models.platform import (
    ApplicationDeployment,
    Cluster,
    PlatformApplication,
    PlatformEnvironment,
)
from altostratus.client.models.quota import Quota
from altostratus.client.models.region import Region
from altostratus.client.models.reserved_ip import ReservedIp, ReservedIpAssignment
from altostratus.client.models.webhook import Webhook, WebhookCreated

__all__ = [
    "App",
    "AppBuild",
    "AppEnvironment",
    "ApplicationDeployment",
    "Cluster",
    "DeviceLogin",
    "Firewall",
    "FirewallCreated",
    "FirewallRule",
    "FirewallUpdated",
    "Identity",
    "LoadBalancer",
    "LoadBalancerBackend",
    "LoadBalancerBackendRecord",
    "LogLine",
    "LoginSession",
    "Network",
    "NetworkCreated",
    "NetworkUpdated",
    "ObjectStore",
    "ObjectStoreCredential",
    "ObjectStoreOwner",
    "ObjectStoreStats",
    "Organization",
    "PlatformApplication",
    "PlatformEnvironment",
    "Quota",
    "Region",
    "ReservedIp",
    "ReservedIpAssignment",
    "Webhook",
    "WebhookCreated",
]
