"""Each collection call: the method, path, query and body it sends, and the model it answers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from altostratus.client import Client, models

from .conftest import FakeAPI, answer, body_of
from .records import (
    BACKEND,
    CREDENTIAL,
    FIREWALL,
    LOAD_BALANCER,
    NETWORK,
    OBJECT_STORE,
    QUOTA,
    RESERVED_IP,
    RULE,
    WEBHOOK,
    page,
)

DONE = {"result": "success"}
NET_CREATED = {"id": "n1", "result": "success", "name": "net-abc", "label": "a"}
LB_CREATED = {k: v for k, v in LOAD_BALANCER.items() if k != "service_name"} | {"state": ""}
BACKEND_2 = BACKEND | {"ip": "10.1.0.6"}
KEY_ID = "AKIAEXAMPLE000000000"


@dataclass
class Case:
    call: Callable[[Client], Any]
    request: str
    """Method, path and query sent."""
    body: Any
    answer: Any
    returns: type | None
    """The model answered (of each item, for lists); None when the call answers nothing."""


# fmt: off
CASES: dict[str, Case] = {
    "networks.list": Case(
        lambda c: c.networks.list(),
        "GET /v2/vpc/networks?region=LON1", None, [NETWORK], models.Network),
    "networks.get": Case(
        lambda c: c.networks.get("n1", region="fra1"),
        "GET /v2/vpc/networks/n1?region=FRA1", None, NETWORK, models.Network),
    "networks.create": Case(
        lambda c: c.networks.create(label="a", nameservers_v4=["1.1.1.1", "8.8.8.8"],
                                    cidr_v4="10.1.0.0/24"),
        "POST /v2/vpc/networks?region=LON1",
        {"label": "a", "region": "LON1", "cidr_v4": "10.1.0.0/24",
         "nameservers_v4": "1.1.1.1,8.8.8.8"},
        NET_CREATED, models.NetworkCreated),
    "networks.create with text nameservers": Case(
        lambda c: c.networks.create(label="a", ipv4_enabled=False, nameservers_v4="9.9.9.9"),
        "POST /v2/vpc/networks?region=LON1",
        {"label": "a", "region": "LON1", "ipv4_enabled": False, "nameservers_v4": "9.9.9.9"},
        NET_CREATED, models.NetworkCreated),
    "networks.update": Case(
        lambda c: c.networks.update("n1", label="b"),
        "PUT /v2/vpc/networks/n1?region=LON1", {"label": "b", "region": "LON1"},
        {"id": "n1", "result": "success", "label": "b"}, models.NetworkUpdated),
    "networks.delete": Case(
        lambda c: c.networks.delete("n1"),
        "DELETE /v2/vpc/networks/n1?region=LON1", None, DONE, None),
    "firewalls.list": Case(
        lambda c: c.firewalls.list(),
        "GET /v2/vpc/firewalls?region=LON1", None, [FIREWALL], models.Firewall),
    "firewalls.get": Case(
        lambda c: c.firewalls.get("f1"),
        "GET /v2/vpc/firewalls/f1?region=LON1", None, FIREWALL, models.Firewall),
    "firewalls.create": Case(
        lambda c: c.firewalls.create(name="web", network_id="n1", create_default_rules=False),
        "POST /v2/vpc/firewalls?region=LON1",
        {"name": "web", "network_id": "n1", "region": "LON1", "create_default_rules": False},
        {"id": "f1", "result": "success", "name": "web"}, models.FirewallCreated),
    "firewalls.update": Case(
        lambda c: c.firewalls.update("f1", name="web2"),
        "PUT /v2/vpc/firewalls/f1?region=LON1", {"name": "web2", "region": "LON1"},
        {"id": "f1", "result": "success", "name": "web2"}, models.FirewallUpdated),
    "firewalls.delete": Case(
        lambda c: c.firewalls.delete("f1"),
        "DELETE /v2/vpc/firewalls/f1?region=LON1", None, DONE, None),
    "firewall_rules.list": Case(
        lambda c: c.firewall_rules.list("f1"),
        "GET /v2/vpc/firewalls/f1/rules?region=LON1", None, [RULE], models.FirewallRule),
    "firewall_rules.get": Case(
        lambda c: c.firewall_rules.get("f1", "r1"),
        "GET /v2/vpc/firewalls/f1/rules?region=LON1", None, [RULE], models.FirewallRule),
    "firewall_rules.create": Case(
        lambda c: c.firewall_rules.create("f1", protocol="tcp", start_port=8000, end_port="8080",
                                          cidr=["10.0.0.0/8"], label="app"),
        "POST /v2/vpc/firewalls/f1/rules?region=LON1",
        {"region": "LON1", "protocol": "tcp", "start_port": "8000", "end_port": "8080",
         "cidr": ["10.0.0.0/8"], "label": "app"},
        {k: v for k, v in RULE.items() if k != "ports"}, models.FirewallRule),
    "firewall_rules.create icmp": Case(
        lambda c: c.firewall_rules.create("f1", protocol="icmp", cidr="0.0.0.0/0",
                                          direction="egress", action="deny"),
        "POST /v2/vpc/firewalls/f1/rules?region=LON1",
        {"region": "LON1", "protocol": "icmp", "cidr": "0.0.0.0/0", "direction": "egress",
         "action": "deny"},
        {"id": "r2", "firewall_id": "f1", "protocol": "icmp", "cidr": ["0.0.0.0/0"],
         "direction": "egress", "action": "deny"}, models.FirewallRule),
    "firewall_rules.update": Case(
        lambda c: c.firewall_rules.update("f1", "r1", start_port=22, direction="ingress"),
        "PUT /v2/vpc/firewalls/f1/rules/r1?region=LON1",
        {"region": "LON1", "start_port": "22", "direction": "ingress"},
        {"id": "r1", "result": "success"}, None),
    "firewall_rules.delete": Case(
        lambda c: c.firewall_rules.delete("f1", "r1"),
        "DELETE /v2/vpc/firewalls/f1/rules/r1?region=LON1", None,
        {"id": "f1", "result": "success", "name": "web"}, None),
    "load_balancers.list": Case(
        lambda c: c.load_balancers.list(),
        "GET /v2/vpc/loadbalancers?region=LON1", None, [LOAD_BALANCER], models.LoadBalancer),
    "load_balancers.get": Case(
        lambda c: c.load_balancers.get("lb1"),
        "GET /v2/vpc/loadbalancers/lb1?region=LON1", None, LOAD_BALANCER, models.LoadBalancer),
    "load_balancers.create": Case(
        lambda c: c.load_balancers.create(
            name="front", network_id="n1",
            backends=[models.LoadBalancerBackend(**BACKEND), BACKEND_2],
            algorithm="least_connections", external_traffic_policy="Local",
            session_affinity="ClientIP", session_affinity_config_timeout=60,
            enable_proxy_protocol="send", max_concurrent_requests=500),
        "POST /v2/vpc/loadbalancers?region=LON1",
        {"name": "front", "network_id": "n1", "region": "LON1", "backends": [BACKEND, BACKEND_2],
         "algorithm": "least_connections", "external_traffic_policy": "Local",
         "session_affinity": "ClientIP", "session_affinity_config_timeout": 60,
         "enable_proxy_protocol": "send", "max_concurrent_requests": 500},
        LB_CREATED, models.LoadBalancer),
    "load_balancers.update": Case(
        lambda c: c.load_balancers.update("lb1", name="front2", backends=[BACKEND]),
        "PUT /v2/vpc/loadbalancers/lb1?region=LON1", {"name": "front2", "backends": [BACKEND]},
        LOAD_BALANCER, models.LoadBalancer),
    "load_balancers.delete": Case(
        lambda c: c.load_balancers.delete("lb1"),
        "DELETE /v2/vpc/loadbalancers/lb1?region=LON1", None, DONE, None),
    "reserved_ips.list": Case(
        lambda c: c.reserved_ips.list(),
        "GET /v2/vpc/ips?region=LON1&page=1&per_page=100", None, page([RESERVED_IP]),
        models.ReservedIp),
    "reserved_ips.get": Case(
        lambda c: c.reserved_ips.get("ip1"),
        "GET /v2/vpc/ips/ip1?region=LON1", None, RESERVED_IP, models.ReservedIp),
    "reserved_ips.create": Case(
        lambda c: c.reserved_ips.create(name="edge"),
        "POST /v2/vpc/ips?region=LON1", {"name": "edge", "region": "LON1"},
        {"id": "ip1", "name": "edge"}, models.ReservedIp),
    "reserved_ips.update": Case(
        lambda c: c.reserved_ips.update("ip1", name="edge2"),
        "PUT /v2/vpc/ips/ip1?region=LON1", {"name": "edge2", "region": "LON1"},
        {"id": "ip1", "name": "edge2"}, models.ReservedIp),
    "reserved_ips.delete": Case(
        lambda c: c.reserved_ips.delete("ip1"),
        "DELETE /v2/vpc/ips/ip1?region=LON1", None, DONE, None),
    "reserved_ips.assign": Case(
        lambda c: c.reserved_ips.assign("ip1", "lb1"),
        "POST /v2/vpc/ips/ip1/actions?region=LON1",
        {"action": "assign", "assign_to_id": "lb1", "region": "LON1"}, DONE, None),
    "reserved_ips.unassign": Case(
        lambda c: c.reserved_ips.unassign("ip1", region="FRA1"),
        "POST /v2/vpc/ips/ip1/actions?region=FRA1", {"action": "unassign", "region": "FRA1"},
        DONE, None),
    "object_stores.list": Case(
        lambda c: c.object_stores.list(),
        "GET /v2/objectstores?region=LON1&page=1&per_page=100", None, page([OBJECT_STORE]),
        models.ObjectStore),
    "object_stores.get": Case(
        lambda c: c.object_stores.get("s1"),
        "GET /v2/objectstores/s1?region=LON1", None, OBJECT_STORE, models.ObjectStore),
    "object_stores.create": Case(
        lambda c: c.object_stores.create(name="media", max_size_gb=10, access_key_id=KEY_ID),
        "POST /v2/objectstores?region=LON1",
        {"name": "media", "region": "LON1", "size": 10, "access_key_id": KEY_ID},
        OBJECT_STORE | {"status": "creating"}, models.ObjectStore),
    "object_stores.create by its earlier keyword": Case(
        lambda c: c.object_stores.create(name="media", size=10),
        "POST /v2/objectstores?region=LON1", {"name": "media", "region": "LON1", "size": 10},
        OBJECT_STORE | {"status": "creating"}, models.ObjectStore),
    "object_stores.stats": Case(
        lambda c: c.object_stores.stats("s1"),
        "GET /v2/objectstores/s1/stats?region=LON1", None,
        {"size_kb_utilised": 12, "max_size_kb": 524288000, "num_objects": 3},
        models.ObjectStoreStats),
    "object_stores.update": Case(
        lambda c: c.object_stores.update("s1", max_size_gb=20),
        "PATCH /v2/objectstores/s1?region=LON1", {"region": "LON1", "max_size_gb": 20},
        OBJECT_STORE, models.ObjectStore),
    "object_stores.delete": Case(
        lambda c: c.object_stores.delete("s1"),
        "DELETE /v2/objectstores/s1?region=LON1", None, DONE, None),
    "object_store_credentials.list": Case(
        lambda c: c.object_store_credentials.list(),
        "GET /v2/objectstore/credentials?region=LON1&page=1&per_page=100", None,
        page([CREDENTIAL]), models.ObjectStoreCredential),
    "object_store_credentials.get": Case(
        lambda c: c.object_store_credentials.get("c1"),
        "GET /v2/objectstore/credentials/c1?region=LON1", None, CREDENTIAL,
        models.ObjectStoreCredential),
    "object_store_credentials.create": Case(
        lambda c: c.object_store_credentials.create(name="k", max_size_gb=5,
                                                    secret_access_key_id="s" * 40),
        "POST /v2/objectstore/credentials?region=LON1",
        {"name": "k", "region": "LON1", "secret_access_key_id": "s" * 40, "max_size_gb": 5},
        CREDENTIAL, models.ObjectStoreCredential),
    "object_store_credentials.update": Case(
        lambda c: c.object_store_credentials.update("c1", access_key_id=KEY_ID),
        "PATCH /v2/objectstore/credentials/c1?region=LON1",
        {"region": "LON1", "access_key_id": KEY_ID}, CREDENTIAL, models.ObjectStoreCredential),
    "object_store_credentials.delete": Case(
        lambda c: c.object_store_credentials.delete("c1"),
        "DELETE /v2/objectstore/credentials/c1?region=LON1", None, DONE, None),
    "webhooks.list": Case(
        lambda c: c.webhooks.list(), "GET /v2/webhooks", None, [WEBHOOK], models.Webhook),
    "webhooks.get": Case(
        lambda c: c.webhooks.get("w1"), "GET /v2/webhooks", None, [WEBHOOK], models.Webhook),
    "webhooks.create": Case(
        lambda c: c.webhooks.create(url="https://hooks.test/in", events=("network.created",)),
        "POST /v2/webhooks", {"url": "https://hooks.test/in", "events": ["network.created"]},
        {"result": "success", "id": "w1"}, models.WebhookCreated),
    "webhooks.update": Case(
        lambda c: c.webhooks.update("w1", secret="x" * 40),
        "PUT /v2/webhooks/w1", {"secret": "x" * 40}, WEBHOOK, models.Webhook),
    "webhooks.delete": Case(
        lambda c: c.webhooks.delete("w1"), "DELETE /v2/webhooks/w1", None, DONE, None),
    "webhooks.test": Case(
        lambda c: c.webhooks.test("w1"), "POST /v2/webhooks/w1/test", None, DONE, None),
    "quota.get": Case(
        lambda c: c.quota.get(), "GET /v2/quota", None, QUOTA, models.Quota),
    "quota.get by name": Case(
        lambda c: c.quota.get(name="other"), "GET /v2/quota?name=other", None, QUOTA, models.Quota),
    "reserved_ips.update in a region as typed": Case(
        lambda c: c.reserved_ips.update("ip1", name="edge2", region=" nyc1 "),
        "PUT /v2/vpc/ips/ip1?region=NYC1", {"name": "edge2", "region": "NYC1"},
        {"id": "ip1", "name": "edge2"}, models.ReservedIp),
    "load_balancers.update of the settings the official clients update in place": Case(
        lambda c: c.load_balancers.update(
            "lb1", max_concurrent_requests=500, session_affinity_config_timeout=60,
            options={"server_timeout": 30}, firewall_rule="22"),
        "PUT /v2/vpc/loadbalancers/lb1?region=LON1",
        {"max_concurrent_requests": 500, "session_affinity_config_timeout": 60,
         "options": {"server_timeout": 30}, "firewall_rule": "22"},
        LOAD_BALANCER, models.LoadBalancer),
    "load_balancers.update in a region as typed": Case(
        lambda c: c.load_balancers.update("lb1", name="front2", region="phx1"),
        "PUT /v2/vpc/loadbalancers/lb1?region=PHX1", {"name": "front2"},
        LOAD_BALANCER, models.LoadBalancer),
}
# fmt: on


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_call_sends_the_right_request_and_reads_the_answer(
    fake_client: Client, fake_api: FakeAPI, case: Case
) -> None:
    fake_api.queue(answer(200, case.answer))
    result = case.call(fake_client)
    assert len(fake_api.requests) == 1
    request = fake_api.last
    assert f"{request.method} {request.url.raw_path.decode()}" == case.request
    assert body_of(request) == case.body
    if case.body is not None:
        assert request.headers["Content-Type"] == "application/json"
    if case.returns is None:
        assert result is None
    else:
        first = result[0] if isinstance(result, list) else result
        assert type(first) is case.returns


def test_every_collection_method_has_a_case(fake_client: Client) -> None:
    names = {name.split(" ")[0] for name in CASES}
    for attribute in (
        "networks",
        "firewalls",
        "firewall_rules",
        "load_balancers",
        "reserved_ips",
        "object_stores",
        "object_store_credentials",
        "webhooks",
        "quota",
    ):
        collection = getattr(fake_client, attribute)
        public = {
            m for m in dir(collection) if not m.startswith("_") and callable(getattr(collection, m))
        }
        # Speaks S3, not the API: tests/client/test_store_objects.py runs it against the emulator.
        public -= {"count_objects"} if attribute == "object_stores" else set()
        assert public == {n.split(".")[1] for n in names if n.startswith(attribute + ".")}


def test_ids_are_escaped_in_paths(fake_client: Client, fake_api: FakeAPI) -> None:
    fake_api.queue(answer(200, NETWORK))
    fake_client.networks.get("../quota?x=1")
    assert fake_api.last.url.raw_path == b"/v2/vpc/networks/..%2Fquota%3Fx%3D1?region=LON1"
