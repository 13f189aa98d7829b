"""The emulator's resource kinds, in one table.

Each kind has a ``name`` (``"network"``: how a saved folder and the code name it), the ``State``
attribute holding its store (also the name of its route module, ``routes/networks.py``), its key
in a seed (``networks``) and the path of its create call, its store class and its record class.
``KINDS`` lists them in the order a seed makes them: a kind after the kinds its records refer to
(a firewall after its network, a reserved IP after the balancer it is assigned to); removals
and lookups that must see a referring record before the one it refers to walk it backwards.

The state builds its stores from it; the seed, the state export, the state folder and the routes
iterate it. Adding a kind edits this table and the kind's own modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from altostratus.emulator.state.app_environments import AppEnvironment, AppEnvironments
from altostratus.emulator.state.application_deployments import (
    ApplicationDeployment,
    ApplicationDeployments,
)
from altostratus.emulator.state.apps import App, Apps
from altostratus.emulator.state.base import Record, Store
from altostratus.emulator.state.credentials import Credential, Credentials
from altostratus.emulator.state.firewalls import Firewall, Firewalls
from altostratus.emulator.state.load_balancers import LoadBalancer, LoadBalancers
from altostratus.emulator.state.networks import Network, Networks
from altostratus.emulator.state.object_stores import ObjectStore, ObjectStores
from altostratus.emulator.state.platform_applications import (
    PlatformApplication,
    PlatformApplications,
)
from altostratus.emulator.state.platform_environments import (
    PlatformEnvironment,
    PlatformEnvironments,
)
from altostratus.emulator.state.reserved_ips import ReservedIp, ReservedIps
from altostratus.emulator.state.webhooks import Webhook, Webhooks


@dataclass(frozen=True)
class Kind:
    name: str
    attribute: str
    seed_key: str
    path: str
    store: type[Store[Any, Any, Any]]
    record: type[Record]


KINDS: tuple[Kind, ...] = (
    Kind("network", "networks", "networks", "/v2/vpc/networks", Networks, Network),
    Kind("firewall", "firewalls", "firewalls", "/v2/vpc/firewalls", Firewalls, Firewall),
    Kind(
        "object_store_credential",
        "credentials",
        "object_store_credentials",
        "/v2/objectstore/credentials",
        Credentials,
        Credential,
    ),
    Kind(
        "object_store",
        "object_stores",
        "object_stores",
        "/v2/objectstores",
        ObjectStores,
        ObjectStore,
    ),
    Kind(
        "load_balancer",
        "load_balancers",
        "load_balancers",
        "/v2/vpc/loadbalancers",
        LoadBalancers,
        LoadBalancer,
    ),
    Kind("reserved_ip", "reserved_ips", "reserved_ips", "/v2/vpc/ips", ReservedIps, ReservedIp),
    Kind("webhook", "webhooks", "webhooks", "/v2/webhooks", Webhooks, Webhook),
    # The platform's records, under /api/v1 (see ``state.organizations``).
    Kind(
        "platform_environment",
        "platform_environments",
        "platform_environments",
        "/api/v1/environment",
        PlatformEnvironments,
        PlatformEnvironment,
    ),
    Kind(
        "platform_application",
        "platform_applications",
        "platform_applications",
        "/api/v1/application/register",
        PlatformApplications,
        PlatformApplication,
    ),
    Kind(
        "application_deployment",
        "application_deployments",
        "application_deployments",
        "/api/v1/application-deployment/deploy",
        ApplicationDeployments,
        ApplicationDeployment,
    ),
    # The applications of ``cli deploy`` and the environments they run in.
    Kind(
        "app_environment",
        "app_environments",
        "app_environments",
        "/api/v1/app-environments",
        AppEnvironments,
        AppEnvironment,
    ),
    Kind("app", "apps", "apps", "/api/v1/apps", Apps, App),
)

BY_NAME = {kind.name: kind for kind in KINDS}
