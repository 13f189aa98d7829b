"""A stack of all eight resources, wired together as a program would write it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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

Outputs = dict[str, dict[str, Any]]
"""Outputs of the resources made so far, by resource name."""

BACKEND = {"ip": "10.60.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}


@dataclass(frozen=True)
class Member:
    name: str
    provider: Provider
    inputs: Callable[[Outputs], dict[str, Any]]
    update: dict[str, Any]
    """Inputs changed in place by the second ``up``."""


def _id(outs: Outputs, name: str) -> str:
    return str(outs[name]["__id"])


STACK = [
    Member(
        "network",
        NetworkProvider(),
        lambda o: {"label": "app", "cidr_v4": "10.60.0.0/24"},
        {"label": "app-renamed"},
    ),
    Member(
        "firewall",
        FirewallProvider(),
        lambda o: {"network_id": _id(o, "network"), "create_default_rules": False},
        {"name": "fw-renamed"},
    ),
    Member(
        "rule",
        FirewallRuleProvider(),
        lambda o: {
            "firewall_id": _id(o, "firewall"),
            "protocol": "tcp",
            "start_port": "22",
            "cidr": ["10.0.0.0/8"],
            "label": "ssh",
        },
        {"start_port": "2222", "cidr": ["10.0.0.0/8", "192.168.0.0/16"]},
    ),
    Member(
        "balancer",
        LoadBalancerProvider(),
        lambda o: {
            "network_id": _id(o, "network"),
            "backends": [BACKEND],
            "firewall_id": _id(o, "firewall"),  # else it gets one of its own
        },
        {"algorithm": "least_connections", "backends": [BACKEND, {**BACKEND, "ip": "10.60.0.11"}]},
    ),
    Member(
        "address",
        ReservedIpProvider(),
        lambda o: {"assign_to_id": _id(o, "balancer")},
        {"name": "address-renamed"},
    ),
    Member(
        "credential",
        ObjectStoreCredentialProvider(),
        lambda o: {"max_size_gb": 50},
        {"max_size_gb": 10},
    ),
    Member(
        "store",
        ObjectStoreProvider(),
        lambda o: {"max_size_gb": 100, "access_key_id": o["credential"]["access_key_id"]},
        {"max_size_gb": 200},
    ),
    Member(
        "webhook",
        WebhookProvider(),
        lambda o: {"url": "https://hooks.example.com/infra", "events": ["network.created"]},
        {"events": ["network.deleted", "network.created"]},
    ),
]


def inventory(api: Client) -> dict[str, int]:
    """How many records of each kind the account has (default networks excluded)."""
    firewalls = api.firewalls.list()
    return {
        "network": sum(1 for n in api.networks.list() if not n.default),
        "firewall": len(firewalls),
        "rule": sum(len(api.firewall_rules.list(f.id)) for f in firewalls),
        "balancer": len(api.load_balancers.list()),
        "address": len(api.reserved_ips.list()),
        "credential": len(api.object_store_credentials.list()),
        "store": len(api.object_stores.list()),
        "webhook": len(api.webhooks.list()),
    }
