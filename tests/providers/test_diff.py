"""diff(): only user-controlled inputs, normalised; replaces; delete-before-replace."""

from __future__ import annotations

from typing import Any

import pytest
from pulumi.runtime import rpc

from altostratus.providers._base import Provider
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.firewall_rule import FirewallRuleProvider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store import ObjectStoreProvider
from altostratus.providers.reserved_ip import ReservedIpProvider
from altostratus.providers.webhook import WebhookProvider

B1 = {"ip": "10.0.0.1", "protocol": "TCP", "source_port": 80, "target_port": 8080}
B2 = {"ip": "10.0.0.2", "protocol": "UDP", "source_port": 53, "target_port": 53}


def _diff(provider: Provider, olds: dict[str, Any], news: dict[str, Any]) -> Any:
    return provider.diff("id", olds, news)


@pytest.mark.parametrize(
    ("provider", "olds", "news"),
    [
        (
            NetworkProvider(),
            {"cidr_v4": "10.1.0.0/24", "region": "LON1"},
            {"cidr_v4": "10.1.0.7/24", "region": "lon1"},
        ),
        (
            FirewallRuleProvider(),
            {"cidr": ["10.0.0.0/8", "192.168.0.0/16"]},
            {"cidr": ["192.168.0.0/16", "10.0.0.0/8"]},
        ),
        (FirewallRuleProvider(), {"cidr": ["10.0.0.0/8"]}, {"cidr": "10.0.0.0/8"}),
        (
            LoadBalancerProvider(),
            {"backends": [B1, B2]},
            {"backends": [B2, {**B1, "source_port": 80.0}]},
        ),
        (
            WebhookProvider(),
            {"events": ["ip.created", "ip.deleted"]},
            {"events": ["ip.deleted", "ip.created"]},
        ),
        (WebhookProvider(), {"url": "https://h/", "secret": "generated"}, {"url": "https://h/"}),
        (LoadBalancerProvider(), {"service_name": "lb-1", "state": "available"}, {}),
    ],
    ids=[
        "cidr-text-and-region-case",
        "cidr-order",
        "cidr-one-or-list",
        "backend-order",
        "event-order",
        "generated-secret-kept",
        "outputs-ignored",
    ],
)
def test_equivalent_inputs_answer_no_changes(
    provider: Provider, olds: dict[str, Any], news: dict[str, Any]
) -> None:
    result = _diff(provider, olds, news)
    assert result.changes is False and result.replaces == []


def test_fields_the_api_cannot_update_are_replaced() -> None:
    olds = {
        "name": "lb",
        "network_id": "n1",
        "region": "LON1",
        "backends": [B1],
        "max_concurrent_requests": 10000,
        "algorithm": "round_robin",
    }
    news = {
        **olds,
        "network_id": "n2",
        "max_concurrent_requests": 5,
        "algorithm": "least_connections",
    }
    result = _diff(LoadBalancerProvider(), olds, {**news, "__name_prefix": "lb"})
    assert result.changes is True
    assert result.replaces == ["network_id"]


def test_settings_the_official_clients_update_in_place_do_not_replace_a_balancer() -> None:
    olds = {"name": "lb", "network_id": "n1", "region": "LON1", "backends": [B1]}
    olds |= {"max_concurrent_requests": 10000, "session_affinity_config_timeout": 10800}
    news = {**olds, "max_concurrent_requests": 5, "session_affinity_config_timeout": 60}
    result = _diff(LoadBalancerProvider(), olds, {**news, "__name_prefix": "lb"})
    assert result.changes is True and result.replaces == []
    changed_firewall = {**olds, "firewall_id": "fw2", "__name_prefix": "lb"}
    assert _diff(LoadBalancerProvider(), olds, changed_firewall).replaces == ["firewall_id"]
    assert result.delete_before_replace is False


def test_a_fixed_unique_name_is_deleted_before_replacing() -> None:
    olds = {"name": "assets", "region": "LON1"}
    result = _diff(ObjectStoreProvider(), olds, {"name": "assets", "region": "FRA1"})
    assert result.replaces == ["region"] and result.delete_before_replace is True
    renamed = _diff(ObjectStoreProvider(), olds, {"name": "assets2", "region": "LON1"})
    assert renamed.replaces == ["name"] and renamed.delete_before_replace is False
    network = _diff(NetworkProvider(), {"region": "LON1"}, {"region": "FRA1", "label": "x"})
    assert network.delete_before_replace is False


def test_unknown_inputs_count_as_changes() -> None:
    result = _diff(FirewallProvider(), {"network_id": "n"}, {"network_id": rpc.UNKNOWN})
    assert result.changes is True and result.replaces == ["network_id"]


def test_leaving_out_an_assignment_unassigns() -> None:
    result = _diff(ReservedIpProvider(), {"name": "ip", "assign_to_id": "lb"}, {"name": "ip"})
    assert result.changes is True and result.replaces == []
    same = _diff(ReservedIpProvider(), {"name": "ip"}, {"name": "ip"})
    assert same.changes is False


def test_rule_action_replaces_while_ports_update() -> None:
    olds = {"firewall_id": "f", "protocol": "tcp", "start_port": "22", "action": "allow"}
    ports = _diff(FirewallRuleProvider(), olds, {**olds, "start_port": "23"})
    assert ports.changes is True and ports.replaces == []
    action = _diff(FirewallRuleProvider(), olds, {**olds, "action": "deny"})
    assert action.replaces == ["action"]
