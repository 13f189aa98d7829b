"""One scenario per resource, shared by the direct and the engine tests.

``inputs`` builds the program's inputs from the ids of the resources it depends on; ``update``
changes inputs the API updates in place; ``replace`` changes one it cannot; ``outside`` changes
the live resource through the client, and ``drifted`` is the output a refresh must then show.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from altostratus.client import Client
from altostratus.providers._base import Provider
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.firewall_rule import FirewallRuleProvider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store import ObjectStoreProvider
from altostratus.providers.object_store_credential import ObjectStoreCredentialProvider
from altostratus.providers.reserved_ip import ReservedIpProvider
from altostratus.providers.webhook import WebhookProvider

Deps = dict[str, str]
BACKEND = {"ip": "10.20.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}


@dataclass
class Scenario:
    name: str
    provider: Provider
    inputs: Callable[[Deps], dict[str, Any]]
    update: Callable[[Deps], dict[str, Any]]
    replace: dict[str, Any]
    outside: Callable[[Client, str, dict[str, Any]], object]
    drifted: tuple[str, Any]
    needs: tuple[str, ...] = ()
    checks: dict[str, Any] = field(default_factory=dict)
    """Outputs the create must fill (a value, or ... for any non-empty value)."""


def _rule_update(api: Client, id_: str, outs: dict[str, Any]) -> None:
    api.firewall_rules.update(outs["firewall_id"], id_, label="outside", region=outs["region"])


SCENARIOS = [
    Scenario(
        "network",
        NetworkProvider(),
        lambda d: {"label": "app", "cidr_v4": "10.30.0.0/24"},
        lambda d: {"label": "app-renamed"},
        {"cidr_v4": "10.31.0.0/24"},
        lambda api, id_, outs: api.networks.update(id_, label="outside", region=outs["region"]),
        ("label", "outside"),
        checks={"cidr": "10.30.0.0/24", "gateway_ipv4": ..., "region": "LON1", "status": ...},
    ),
    Scenario(
        "firewall",
        FirewallProvider(),
        # On the region's default network, so that a change of region alone replaces it.
        lambda d: {"create_default_rules": False},
        lambda d: {"name": "fw-renamed"},
        {"region": "FRA1"},
        lambda api, id_, outs: api.firewalls.update(id_, name="outside", region=outs["region"]),
        ("name", "outside"),
        checks={"account_id": ..., "rules": [], "network_id": ...},
    ),
    Scenario(
        "firewall_rule",
        FirewallRuleProvider(),
        lambda d: {
            "firewall_id": d["firewall_id"],
            "protocol": "tcp",
            "start_port": "22",
            "cidr": ["10.0.0.0/8"],
            "label": "ssh",
        },
        lambda d: {"start_port": "2222", "cidr": ["10.0.0.0/8", "192.168.0.0/16"]},
        {"action": "deny"},
        _rule_update,
        ("label", "outside"),
        needs=("firewall_id",),
        checks={"ports": "22", "direction": "ingress", "action": "allow"},
    ),
    Scenario(
        "load_balancer",
        LoadBalancerProvider(),
        lambda d: {"network_id": d["network_id"], "backends": [BACKEND]},
        lambda d: {
            "algorithm": "least_connections",
            "backends": [BACKEND, {**BACKEND, "ip": "10.20.0.11", "health_check_port": 8081}],
            "max_concurrent_requests": 500,
            "session_affinity_config_timeout": 60,
        },
        {},  # what replaces a balancer names another record: test_official_shapes.py
        lambda api, id_, outs: api.load_balancers.update(
            id_, algorithm="round_robin", region=outs["region"]
        ),
        ("algorithm", "round_robin"),
        needs=("network_id",),
        checks={"state": "available", "public_ip": ..., "private_ip": ..., "service_name": ...},
    ),
    Scenario(
        "reserved_ip",
        ReservedIpProvider(),
        lambda d: {},
        lambda d: {"assign_to_id": d["load_balancer_id"]},
        {"region": "FRA1"},
        lambda api, id_, outs: api.reserved_ips.unassign(id_, region=outs["region"]),
        ("assign_to_id", None),
        needs=("load_balancer_id",),
        checks={"ip": ..., "assigned_to_id": None},
    ),
    Scenario(
        "object_store_credential",
        ObjectStoreCredentialProvider(),
        lambda d: {},
        lambda d: {"max_size_gb": 10},
        {"region": "FRA1"},
        lambda api, id_, outs: api.object_store_credentials.update(
            id_, max_size_gb=7, region=outs["region"]
        ),
        ("max_size_gb", 7),
        checks={"access_key_id": ..., "secret_access_key": ..., "status": "ready"},
    ),
    Scenario(
        "object_store",
        ObjectStoreProvider(),
        lambda d: {"max_size_gb": 100},
        lambda d: {"max_size_gb": 200},
        {"region": "FRA1"},
        lambda api, id_, outs: api.object_stores.update(
            id_, max_size_gb=300, region=outs["region"]
        ),
        ("max_size_gb", 300),
        checks={
            "status": "ready",
            "bucket_name": ...,
            "endpoint_url": ...,
            "secret_access_key": ...,
        },
    ),
    Scenario(
        "webhook",
        WebhookProvider(),
        lambda d: {"url": "https://hooks.example.com/infra", "events": ["network.created"]},
        lambda d: {"events": ["network.deleted", "network.created"], "url": "http://h.example/x"},
        {},
        lambda api, id_, outs: api.webhooks.update(id_, url="https://outside.example.com/"),
        ("url", "https://outside.example.com/"),
        checks={"secret": ..., "disabled": False, "failures": 0},
    ),
]
IDS = [scenario.name for scenario in SCENARIOS]


def dependencies(api: Client, needs: tuple[str, ...]) -> Deps:
    """The resources a scenario depends on, made through the client."""
    deps: Deps = {}
    if not needs:
        return deps
    network = api.networks.create(label="deps", cidr_v4="10.20.0.0/24")
    deps["network_id"] = network.id
    if "firewall_id" in needs:
        firewall = api.firewalls.create(
            name="deps", network_id=network.id, create_default_rules=False
        )
        deps["firewall_id"] = firewall.id
    if "load_balancer_id" in needs:
        balancer = api.load_balancers.create(name="deps", network_id=network.id, backends=[BACKEND])
        deps["load_balancer_id"] = balancer.id
    return deps


def assert_filled(outs: dict[str, Any], checks: dict[str, Any]) -> None:
    for key, expected in checks.items():
        if expected is ...:
            assert outs.get(key), f"{key} is empty in {sorted(outs)}"
        else:
            assert outs.get(key) == expected, (key, outs.get(key))
