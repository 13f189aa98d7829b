"""Invalid inputs of every resource: refused at check, before any request, naming the property;
and the same values sent to the service directly: 400 naming the field."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers._base import Provider
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.firewall_rule import FirewallRuleProvider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store import ObjectStoreProvider
from altostratus.providers.object_store_credential import ObjectStoreCredentialProvider
from altostratus.providers.reserved_ip import ReservedIpProvider
from altostratus.providers.webhook import WebhookProvider
from tests.support.engine import Engine

from .raw_http import Http

BACKEND = {"ip": "10.50.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}


@dataclass(frozen=True)
class Kind:
    """A resource: its provider, valid inputs, and the create call that takes them."""

    provider: Provider
    inputs: dict[str, Any]
    path: str
    renamed: dict[str, str] = field(default_factory=dict)
    """Inputs whose API field has another name."""


KINDS = {
    "network": Kind(NetworkProvider(), {"label": "net"}, "/v2/vpc/networks"),
    "firewall": Kind(
        FirewallProvider(), {"name": "fw", "network_id": "{network}"}, "/v2/vpc/firewalls"
    ),
    "rule": Kind(
        FirewallRuleProvider(),
        {"firewall_id": "{firewall}", "protocol": "tcp", "start_port": "22"},
        "/v2/vpc/firewalls/{firewall}/rules",
    ),
    "balancer": Kind(
        LoadBalancerProvider(),
        {"name": "lb", "network_id": "{network}", "backends": [BACKEND]},
        "/v2/vpc/loadbalancers",
    ),
    "ip": Kind(ReservedIpProvider(), {"name": "ip"}, "/v2/vpc/ips"),
    "assign": Kind(
        ReservedIpProvider(),
        {"name": "ip", "assign_to_id": "{balancer}"},
        "/v2/vpc/ips/{ip}/actions",
    ),
    "store": Kind(
        ObjectStoreProvider(), {"name": "store"}, "/v2/objectstores", {"max_size_gb": "size"}
    ),
    "credential": Kind(
        ObjectStoreCredentialProvider(), {"name": "cred"}, "/v2/objectstore/credentials"
    ),
    "webhook": Kind(WebhookProvider(), {"url": "https://hooks.example.com/x"}, "/v2/webhooks"),
}


@dataclass(frozen=True)
class Bad:
    kind: str
    change: dict[str, Any]
    prop: str
    """The property the CheckFailure names (and, unless ``api_field`` says otherwise, the API
    field the 400 names)."""
    drop: tuple[str, ...] = ()
    api_field: str | None = None
    on_wire: bool = True
    """False when the service takes the value (it ignores unknown fields; an empty string is an
    absent field; it takes the official clients' other spellings; the spec allows an empty
    backend set, which only the provider refuses)."""


def backend(**change: Any) -> list[dict[str, Any]]:
    return [{**BACKEND, **change}]


BAD = [
    Bad("network", {"cidr_v4": "10.40.0.0/33"}, "cidr_v4"),
    Bad("network", {"cidr_v4": "8.8.8.0/24"}, "cidr_v4"),
    Bad("network", {"cidr_v4": "not-a-cidr"}, "cidr_v4"),
    Bad("network", {"cidr_v4": "fd00::/64"}, "cidr_v4"),
    Bad("network", {"region": "MARS 1"}, "region"),
    Bad("network", {"label": ""}, "label"),
    Bad("network", {"label": 42}, "label"),
    Bad("network", {"ipv4_enabled": "maybe"}, "ipv4_enabled"),
    Bad("network", {"nameservers_v4": ["8.8.8.300"]}, "nameservers_v4"),
    Bad("network", {"colour": "blue"}, "colour", on_wire=False),
    Bad("firewall", {"name": ""}, "name"),
    Bad("firewall", {"name": 7}, "name"),
    Bad("firewall", {"network_id": " "}, "network_id"),
    Bad("firewall", {"network_id": 12}, "network_id"),
    Bad("firewall", {"create_default_rules": "sometimes"}, "create_default_rules"),
    Bad("firewall", {"region": "eu-west-1"}, "region"),
    Bad("rule", {"protocol": "tcpx"}, "protocol"),
    Bad("rule", {"protocol": "gre"}, "protocol"),
    Bad("rule", {}, "protocol", drop=("protocol",)),
    Bad("rule", {"protocol": "icmp"}, "start_port"),
    Bad("rule", {}, "start_port", drop=("start_port",)),
    Bad("rule", {"start_port": "0"}, "start_port"),
    Bad("rule", {"start_port": "65536"}, "start_port"),
    Bad("rule", {"start_port": "http"}, "start_port"),
    Bad("rule", {"start_port": "22", "end_port": "21"}, "end_port"),
    Bad("rule", {"end_port": "70000"}, "end_port"),
    Bad("rule", {"direction": "inbound"}, "direction", on_wire=False),
    Bad("rule", {"direction": "both"}, "direction"),
    Bad("rule", {"action": "reject"}, "action"),
    Bad("rule", {"cidr": ["10.0.0.0/40"]}, "cidr"),
    Bad("rule", {"cidr": ["300.1.1.1/32"]}, "cidr"),
    Bad("rule", {"cidr": []}, "cidr"),
    Bad("rule", {"cidr": "banana"}, "cidr"),
    Bad("rule", {"label": 5}, "label"),
    Bad("balancer", {"backends": []}, "backends", on_wire=False),
    Bad("balancer", {"backends": backend(ip="999.1.1.1")}, "backends"),
    Bad("balancer", {"backends": backend(protocol="SCTP")}, "backends"),
    Bad("balancer", {"backends": backend(source_port=0)}, "backends"),
    Bad("balancer", {"backends": backend(target_port=70000)}, "backends"),
    Bad("balancer", {"backends": backend(weight=3)}, "backends"),
    Bad("balancer", {"backends": "10.0.0.1"}, "backends"),
    Bad("balancer", {"backends": [5]}, "backends"),
    Bad("balancer", {"algorithm": "random"}, "algorithm"),
    Bad("balancer", {"external_traffic_policy": "Everywhere"}, "external_traffic_policy"),
    Bad("balancer", {"session_affinity": "Cookie"}, "session_affinity"),
    Bad("balancer", {"enable_proxy_protocol": "v2"}, "enable_proxy_protocol"),
    Bad("balancer", {"max_concurrent_requests": 0}, "max_concurrent_requests"),
    Bad("balancer", {"session_affinity_config_timeout": -5}, "session_affinity_config_timeout"),
    Bad("ip", {"region": "2LON"}, "region"),
    Bad("ip", {"name": 3}, "name"),
    Bad("assign", {"assign_to_id": 5}, "assign_to_id"),
    Bad("store", {"name": "Bad_Name"}, "name"),
    Bad("store", {"name": "-store"}, "name"),
    Bad("store", {"max_size_gb": 0}, "max_size_gb", api_field="size"),
    Bad("store", {"max_size_gb": -1}, "max_size_gb", api_field="size"),
    Bad("store", {"max_size_gb": 2.5}, "max_size_gb", api_field="size"),
    Bad("store", {"max_size_gb": "big"}, "max_size_gb", api_field="size"),
    Bad("store", {"access_key_id": ""}, "access_key_id", on_wire=False),
    Bad("credential", {"max_size_gb": 0}, "max_size_gb"),
    Bad("credential", {"access_key_id": 12345}, "access_key_id"),
    Bad("credential", {"secret_access_key_id": ""}, "secret_access_key_id", on_wire=False),
    Bad("credential", {"region": "ny_c"}, "region"),
    Bad("webhook", {"url": "ftp://hooks.example.com/x"}, "url"),
    Bad("webhook", {"url": "not a url"}, "url"),
    Bad("webhook", {"url": "https://"}, "url"),
    Bad("webhook", {}, "url", drop=("url",)),
    Bad("webhook", {"events": ["network.exploded"]}, "events"),
    Bad("webhook", {"events": []}, "events"),
    Bad("webhook", {"events": "network.created"}, "events"),
    Bad("webhook", {"secret": ""}, "secret", on_wire=False),
    # Values the service refuses but the provider's check lets through.
    Bad("network", {"cidr_v4": "10.40.0.0/30"}, "cidr_v4"),
    Bad("rule", {"start_port": "\u0662\u0662"}, "start_port"),
    Bad("balancer", {"backends": backend(ip="2001:db8::10")}, "backends"),
    Bad("store", {"name": "xn--store"}, "name"),
    Bad("store", {"max_size_gb": 2_000_000}, "max_size_gb", api_field="size"),
    Bad("credential", {"access_key_id": "has space"}, "access_key_id"),
    Bad("credential", {"secret_access_key_id": "s"}, "secret_access_key_id"),
    Bad("credential", {"max_size_gb": 2_000_000}, "max_size_gb"),
    Bad("webhook", {"url": "http://:80/"}, "url"),
]


def case_id(bad: Bad) -> str:
    value = "-".join(f"{k}={v!r}" for k, v in bad.change.items()) or f"no-{bad.drop[0]}"
    return f"{bad.kind}:{value}"


def check_cases() -> list[Any]:
    return [pytest.param(bad, id=case_id(bad)) for bad in BAD]


@pytest.fixture(scope="module")
def live(emulator: Emulator) -> Iterator[dict[str, str]]:
    """Ids the valid inputs refer to, made once for the module."""
    emulator.reset()
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
        network = api.networks.create(label="deps", cidr_v4="10.50.0.0/24")
        firewall = api.firewalls.create(name="deps", network_id=network.id)
        balancer = api.load_balancers.create(name="deps", network_id=network.id, backends=[BACKEND])
        ip = api.reserved_ips.create(name="deps")
    yield {"network": network.id, "firewall": firewall.id, "balancer": balancer.id, "ip": ip.id}
    emulator.reset()


def fill(value: Any, live: dict[str, str]) -> Any:
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return live[value.strip("{}")]
    return value


def inputs_of(bad: Bad, live: dict[str, str]) -> dict[str, Any]:
    kind = KINDS[bad.kind]
    inputs = {k: fill(v, live) for k, v in kind.inputs.items() if k not in bad.drop}
    return {**inputs, **bad.change}


def test_the_table_covers_every_resource_with_forty_cases() -> None:
    assert len(BAD) >= 40
    providers = {type(KINDS[bad.kind].provider) for bad in BAD}
    assert len(providers) == 8


@pytest.mark.parametrize("bad", check_cases())
def test_check_refuses_naming_the_property_before_any_request(
    bad: Bad, provider_engine: Engine, emulator: Emulator, live: dict[str, str]
) -> None:
    provider = KINDS[bad.kind].provider
    news = provider_engine.program_inputs(provider, bad.kind, inputs_of(bad, live))
    emulator.clear_requests()
    failures = provider_engine.process.check_failures(provider_engine.urn(provider, bad.kind), news)
    assert [prop for prop, _ in failures] == [bad.prop], failures
    assert bad.prop in failures[0][1]
    assert emulator.requests() == []


@pytest.mark.parametrize("bad", [b for b in BAD if b.on_wire], ids=case_id)
def test_the_service_refuses_the_same_value_with_400_naming_the_field(
    bad: Bad, emulator: Emulator, live: dict[str, str]
) -> None:
    kind = KINDS[bad.kind]
    body = {kind.renamed.get(k, k): v for k, v in inputs_of(bad, live).items()}
    if bad.kind == "assign":
        body = {"action": "assign", "assign_to_id": body["assign_to_id"]}
    path = kind.path.format(**live)
    status, answer = Http(emulator.api_url, emulator.api_key).call("POST", path, body)
    assert status == 400, (status, answer)
    field_name = bad.api_field or bad.prop
    assert field_name in answer["code"] or field_name in answer["reason"], answer
