"""check(): validation naming the property, unknowns let through, defaults, auto-naming."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pulumi.output import Unknown
from pulumi.runtime import rpc

from altostratus.providers._base import Provider
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.firewall_rule import FirewallRuleProvider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store import ObjectStoreProvider
from altostratus.providers.object_store_credential import ObjectStoreCredentialProvider
from altostratus.providers.reserved_ip import ReservedIpProvider
from altostratus.providers.webhook import WebhookProvider

BACKEND = {"ip": "10.0.0.1", "protocol": "TCP", "source_port": 80, "target_port": 8080}
RULE = {"firewall_id": "f", "protocol": "tcp", "start_port": "22"}
LB = {"network_id": "n", "backends": [BACKEND]}

INVALID = [
    (NetworkProvider(), {"cidr_v4": "8.8.8.0/24"}, "cidr_v4"),
    (NetworkProvider(), {"cidr_v4": "10.0.0.0/33"}, "cidr_v4"),
    (NetworkProvider(), {"nameservers_v4": ["1.1.1.1", "dns"]}, "nameservers_v4"),
    (NetworkProvider(), {"region": "MARS-1"}, "region"),
    (NetworkProvider(), {"label": 5}, "label"),
    (NetworkProvider(), {"ipv4_enabled": "yes"}, "ipv4_enabled"),
    (FirewallProvider(), {"network_id": " "}, "network_id"),
    (FirewallProvider(), {"network_id": "n", "name": ""}, "name"),
    (FirewallRuleProvider(), {**RULE, "protocol": "sctp"}, "protocol"),
    (FirewallRuleProvider(), {**RULE, "start_port": "0"}, "start_port"),
    (FirewallRuleProvider(), {**RULE, "start_port": 22}, "start_port"),
    (FirewallRuleProvider(), {**RULE, "end_port": "70000"}, "end_port"),
    (FirewallRuleProvider(), {**RULE, "start_port": "80", "end_port": "79"}, "end_port"),
    (FirewallRuleProvider(), {**RULE, "protocol": "icmp"}, "start_port"),
    (FirewallRuleProvider(), {"firewall_id": "f", "protocol": "udp"}, "start_port"),
    (FirewallRuleProvider(), {**RULE, "cidr": ["10.0.0.0/8", "nope"]}, "cidr"),
    (FirewallRuleProvider(), {**RULE, "direction": "inbound"}, "direction"),
    (FirewallRuleProvider(), {**RULE, "action": "drop"}, "action"),
    (LoadBalancerProvider(), {**LB, "algorithm": "random"}, "algorithm"),
    (LoadBalancerProvider(), {**LB, "backends": []}, "backends"),
    (LoadBalancerProvider(), {**LB, "backends": [{**BACKEND, "ip": "x"}]}, "backends"),
    (LoadBalancerProvider(), {**LB, "backends": [{**BACKEND, "protocol": "HTTP"}]}, "backends"),
    (LoadBalancerProvider(), {**LB, "backends": [{**BACKEND, "source_port": 0}]}, "backends"),
    (LoadBalancerProvider(), {**LB, "backends": [{**BACKEND, "extra": 1}]}, "backends"),
    (LoadBalancerProvider(), {**LB, "external_traffic_policy": "All"}, "external_traffic_policy"),
    (LoadBalancerProvider(), {**LB, "session_affinity": "Cookie"}, "session_affinity"),
    (LoadBalancerProvider(), {**LB, "enable_proxy_protocol": "yes"}, "enable_proxy_protocol"),
    (LoadBalancerProvider(), {**LB, "max_concurrent_requests": 1.5}, "max_concurrent_requests"),
    (ReservedIpProvider(), {"assign_to_id": 3}, "assign_to_id"),
    (ObjectStoreProvider(), {"name": "Not_A_Bucket"}, "name"),
    (ObjectStoreProvider(), {"max_size_gb": 0}, "max_size_gb"),
    (ObjectStoreProvider(), {"max_size_gb": "500"}, "max_size_gb"),
    (ObjectStoreCredentialProvider(), {"max_size_gb": -1}, "max_size_gb"),
    (WebhookProvider(), {}, "url"),
    (WebhookProvider(), {"url": "ftp://h.example/"}, "url"),
    (WebhookProvider(), {"url": "https://h.example/", "events": ["network.exploded"]}, "events"),
    (WebhookProvider(), {"url": "https://h.example/", "colour": "red"}, "colour"),
]


@pytest.mark.parametrize(("provider", "news", "prop"), INVALID)
def test_invalid_input_fails_naming_the_property(
    provider: Provider, news: dict[str, Any], prop: str
) -> None:
    failures = provider.check({}, news).failures
    assert [f.property for f in failures] == [prop]
    assert failures[0].reason.startswith(prop)


@pytest.mark.parametrize("unknown", [rpc.UNKNOWN, Unknown()], ids=["sentinel", "object"])
def test_unknown_values_pass_during_preview(unknown: Any) -> None:
    news = {**LB, "network_id": unknown, "backends": [{**BACKEND, "ip": unknown}]}
    result = LoadBalancerProvider().check({}, news)
    assert result.failures == []
    assert result.inputs["network_id"] is unknown
    rule = FirewallRuleProvider().check({}, {**RULE, "start_port": unknown, "end_port": "10"})
    assert rule.failures == []


def test_defaults_are_filled_and_values_normalised() -> None:
    result = LoadBalancerProvider().check(
        {}, {**LB, "region": "fra1", "max_concurrent_requests": 5.0}
    )
    assert result.inputs["region"] == "FRA1"
    assert result.inputs["max_concurrent_requests"] == 5
    assert isinstance(result.inputs["backends"][0]["source_port"], int)
    assert NetworkProvider().check({}, {"__name_prefix": "app"}).inputs == {
        "label": "app",
        "region": "LON1",
        "__name_prefix": "app",
    }


def test_auto_names_are_random_and_kept_across_updates() -> None:
    provider = FirewallProvider()
    first = provider.check({}, {"network_id": "n", "__name_prefix": "app"}).inputs
    assert re.fullmatch(r"app-[a-z0-9]{7}", first["name"])
    second = provider.check({}, {"network_id": "n", "__name_prefix": "app"}).inputs
    assert second["name"] != first["name"]
    kept = provider.check(first, {"network_id": "other", "__name_prefix": "app"}).inputs
    assert kept["name"] == first["name"]
    # Renamed with aliases: the engine checks against the old inputs, and the name stays.
    renamed = provider.check(first, {"network_id": "n", "__name_prefix": "web"}).inputs
    assert renamed["name"] == first["name"]
    label = NetworkProvider().check({}, {"__name_prefix": "app"}).inputs
    assert NetworkProvider().check(label, {"__name_prefix": "web"}).inputs["label"] == "app"
    fixed = provider.check(first, {"network_id": "n", "name": "mine", "__name_prefix": "app"})
    assert fixed.inputs["name"] == "mine" and "__name_prefix" not in fixed.inputs


def test_store_auto_names_are_valid_bucket_names() -> None:
    name = ObjectStoreProvider().check({}, {"__name_prefix": "My_Assets.Bucket!"}).inputs["name"]
    assert re.fullmatch(r"my-assets-bucket-[a-z0-9]{7}", name)
    long_name = ObjectStoreProvider().check({}, {"__name_prefix": "x" * 80}).inputs["name"]
    assert len(long_name) <= 56
