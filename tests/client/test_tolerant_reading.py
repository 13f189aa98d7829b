"""Every answer the client reads, trimmed to its id and enlarged with unknown fields.

Answers of the real service leave out fields the spec shows and add others (the shapes come from
the service's official clients' fixtures). The client reads them all: only the id is required.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel

from altostratus.client import Client, InvalidResponseError, OutcomeUnknownError

from .conftest import FakeAPI, answer
from .records import (
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

BACKENDS = [{"ip": "10.1.0.5", "protocol": "TCP", "source_port": 80, "target_port": 8080}]


@dataclass(frozen=True)
class Call:
    """One reading call of the client and the record its answer carries."""

    name: str
    call: Callable[[Client], Any]
    record: dict[str, Any]
    shape: str = "one"
    """How the record is answered: "one" object, an "array" of one, a "page" of one."""

    def answer(self, record: dict[str, Any]) -> Any:
        if self.shape == "array":
            return [record]
        if self.shape == "page":
            return page([record])
        return record

    def read(self, client: Client) -> BaseModel:
        result = self.call(client)
        return result[0] if isinstance(result, list) else result


def _created(record: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {"result": "success", **{key: record[key] for key in ("id", *keys)}}


CALLS = [
    Call("networks.get", lambda c: c.networks.get("n1"), NETWORK),
    Call("networks.list", lambda c: c.networks.list(), NETWORK, "array"),
    Call("networks.create", lambda c: c.networks.create(label="backend"), NETWORK),
    Call("networks.update", lambda c: c.networks.update("n1", label="backend"), NETWORK),
    Call("firewalls.get", lambda c: c.firewalls.get("f1"), FIREWALL),
    Call("firewalls.list", lambda c: c.firewalls.list(), FIREWALL, "array"),
    Call("firewalls.create", lambda c: c.firewalls.create(name="web", network_id="n1"), FIREWALL),
    Call("firewall_rules.list", lambda c: c.firewall_rules.list("f1"), RULE, "array"),
    Call("firewall_rules.get", lambda c: c.firewall_rules.get("f1", "r1"), RULE, "array"),
    Call(
        "firewall_rules.create",
        lambda c: c.firewall_rules.create("f1", protocol="tcp", start_port=443),
        RULE,
    ),
    Call("load_balancers.get", lambda c: c.load_balancers.get("lb1"), LOAD_BALANCER),
    Call("load_balancers.list", lambda c: c.load_balancers.list(), LOAD_BALANCER, "array"),
    Call(
        "load_balancers.create",
        lambda c: c.load_balancers.create(name="front", network_id="n1", backends=BACKENDS),
        LOAD_BALANCER,
    ),
    Call(
        "load_balancers.update",
        lambda c: c.load_balancers.update("lb1", name="front"),
        LOAD_BALANCER,
    ),
    Call("reserved_ips.get", lambda c: c.reserved_ips.get("ip1"), RESERVED_IP),
    Call("reserved_ips.list", lambda c: c.reserved_ips.list(), RESERVED_IP, "page"),
    Call("reserved_ips.create", lambda c: c.reserved_ips.create(name="edge"), RESERVED_IP),
    Call("reserved_ips.update", lambda c: c.reserved_ips.update("ip1", name="edge"), RESERVED_IP),
    Call("object_stores.get", lambda c: c.object_stores.get("s1"), OBJECT_STORE),
    Call("object_stores.list", lambda c: c.object_stores.list(), OBJECT_STORE, "page"),
    Call("object_stores.create", lambda c: c.object_stores.create(name="media"), OBJECT_STORE),
    Call(
        "object_stores.update",
        lambda c: c.object_stores.update("s1", max_size_gb=600),
        OBJECT_STORE,
    ),
    Call("credentials.get", lambda c: c.object_store_credentials.get("c1"), CREDENTIAL),
    Call("credentials.list", lambda c: c.object_store_credentials.list(), CREDENTIAL, "page"),
    Call(
        "credentials.create",
        lambda c: c.object_store_credentials.create(name="media-owner"),
        CREDENTIAL,
    ),
    Call(
        "credentials.update",
        lambda c: c.object_store_credentials.update("c1", max_size_gb=600),
        CREDENTIAL,
    ),
    Call("webhooks.list", lambda c: c.webhooks.list(), WEBHOOK, "array"),
    Call("webhooks.get", lambda c: c.webhooks.get("w1"), WEBHOOK, "array"),
    Call("webhooks.create", lambda c: c.webhooks.create(url="https://hooks.test/in"), WEBHOOK),
    Call("webhooks.update", lambda c: c.webhooks.update("w1", events=["*"]), WEBHOOK),
    Call("quota.get", lambda c: c.quota.get(), QUOTA),
]
IDS = [call.name for call in CALLS]


def _enlarged(value: Any) -> Any:
    """The value with an unknown field added to every object, at every depth."""
    if isinstance(value, dict):
        return {**{k: _enlarged(v) for k, v in value.items()}, "x_added_later": {"n": 1}}
    if isinstance(value, list):
        return [_enlarged(item) for item in value]
    return value


# A rule or a webhook is found by id in a list: there a record without an id is not found.
FOUND_IN_A_LIST = ("firewall_rules.get", "webhooks.get")


@pytest.mark.parametrize("call", CALLS, ids=IDS)
def test_only_the_id_is_required_and_unknown_fields_are_ignored(
    fake_client: Client, fake_api: FakeAPI, call: Call
) -> None:
    fake_api.queue(answer(200, call.answer(_enlarged({"id": call.record["id"]}))))
    trimmed = call.read(fake_client).model_dump()
    assert trimmed.pop("id") == call.record["id"]
    trimmed.pop("x_added_later", None)  # quota keeps every counter it is given
    assert trimmed and set(trimmed.values()) == {None}

    fake_api.queue(answer(200, call.answer(call.record)))
    plain = call.read(fake_client).model_dump()
    fake_api.queue(answer(200, call.answer(_enlarged(call.record))))
    enlarged = call.read(fake_client).model_dump()
    enlarged.pop("x_added_later", None)
    assert enlarged == plain
    assert {k for k, v in plain.items() if v is not None} == set(call.record)

    if call.name not in FOUND_IN_A_LIST:
        without_id = {k: v for k, v in call.record.items() if k != "id"}
        fake_api.queue(answer(200, call.answer(without_id)))
        # A create answered without the record may have made it: its outcome is unknown.
        creates = call.name.endswith(".create")
        expected = OutcomeUnknownError if creates else InvalidResponseError
        with pytest.raises(expected, match=r"id: Field required"):
            call.read(fake_client)


# -- shapes the official clients' fixtures show ------------------------------------------------


def test_a_firewall_rename_answered_with_the_result_alone(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    fake_api.queue(answer(200, {"result": "success"}))
    assert fake_client.firewalls.update("f1", name="web").result == "success"
    fake_api.queue(answer(200, {"id": "f1", "result": "success", "name": "web"}))
    assert fake_client.firewalls.update("f1", name="web").name == "web"


def test_webhooks_and_balancers_without_created_at_or_max_concurrent_requests(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    trimmed = ("created_at", "max_concurrent_requests")
    fake_api.queue(answer(200, [{k: v for k, v in WEBHOOK.items() if k not in trimmed}]))
    fake_api.queue(answer(200, [{k: v for k, v in LOAD_BALANCER.items() if k not in trimmed}]))
    (webhook,) = fake_client.webhooks.list()
    (balancer,) = fake_client.load_balancers.list()
    assert (webhook.url, webhook.created_at) == (WEBHOOK["url"], None)
    assert (balancer.name, balancer.created_at, balancer.max_concurrent_requests) == (
        "front",
        None,
        None,
    )


def test_networks_without_gateway_or_free_ip_count_and_firewalls_without_account_or_label(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    network = {k: v for k, v in NETWORK.items() if k not in ("gateway_ipv4", "free_ip_count")}
    firewall = {k: v for k, v in FIREWALL.items() if k not in ("account_id", "label")}
    fake_api.queue(answer(200, [network]), answer(200, [firewall]))
    (read_network,) = fake_client.networks.list()
    (read_firewall,) = fake_client.firewalls.list()
    assert (read_network.cidr, read_network.gateway_ipv4, read_network.free_ip_count) == (
        NETWORK["cidr"],
        None,
        None,
    )
    assert (read_firewall.name, read_firewall.account_id, read_firewall.label) == (
        "web",
        None,
        None,
    )


def test_a_network_create_answer_without_name(fake_client: Client, fake_api: FakeAPI) -> None:
    fake_api.queue(answer(200, {"id": "n1", "result": "success", "label": "backend"}))
    created = fake_client.networks.create(label="backend")
    assert (created.id, created.label, created.name) == ("n1", "backend", None)


def test_a_webhook_create_answered_with_the_whole_webhook(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    whole = {k: v for k, v in WEBHOOK.items() if k != "created_at"}
    fake_api.queue(answer(200, whole))
    created = fake_client.webhooks.create(url=WEBHOOK["url"])
    assert (created.id, created.url, created.secret, created.events) == (
        "w1",
        WEBHOOK["url"],
        WEBHOOK["secret"],
        ["*"],
    )
    assert created.result is None
    assert WEBHOOK["secret"] not in repr(created)


def test_a_quota_with_fewer_and_more_counters(fake_client: Client, fake_api: FakeAPI) -> None:
    counters = {"loadbalancer_count_limit": 16, "objectstore_gb_usage": 500}
    unknown = {"kubernetes_node_count_limit": 30}
    fewer = ("clusters_current_count", "objectstore_gb_limit", "loadbalancer_count_usage")
    trimmed = {k: v for k, v in QUOTA.items() if k not in fewer}
    fake_api.queue(answer(200, trimmed | counters | unknown))
    quota = fake_client.quota.get()
    assert quota.clusters_current_count is None
    assert quota.network_count_limit == QUOTA["network_count_limit"]
    assert (quota.loadbalancer_count_limit, quota.objectstore_gb_usage) == (16, 500)
    assert quota.objectstore_gb_limit is None
    assert quota.model_extra == unknown


def test_object_store_size_answered_as_max_size(fake_client: Client, fake_api: FakeAPI) -> None:
    store = {k: v for k, v in OBJECT_STORE.items() if k != "max_size_gb"} | {"max_size": 750}
    fake_api.queue(answer(200, store), answer(200, page([store])))
    assert fake_client.object_stores.get("s1").max_size_gb == 750
    assert [s.max_size_gb for s in fake_client.object_stores.list()] == [750]
    # Both names: the spec's wins.
    fake_api.queue(answer(200, OBJECT_STORE | {"max_size": 750}))
    assert fake_client.object_stores.get("s1").max_size_gb == OBJECT_STORE["max_size_gb"]


def test_balancer_backends_without_protocol_and_with_a_health_check_port(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    backend = {"ip": "10.1.0.5", "source_port": 80, "target_port": 8080, "health_check_port": 81}
    fake_api.queue(answer(200, LOAD_BALANCER | {"backends": [backend], "options": {"x": 1}}))
    (read,) = fake_client.load_balancers.get("lb1").backends or []
    assert (read.ip, read.protocol, read.source_port, read.target_port) == (
        "10.1.0.5",
        None,
        80,
        8080,
    )
    assert read.health_check_port == 81


def test_a_page_without_items_is_an_empty_page(fake_client: Client, fake_api: FakeAPI) -> None:
    fake_api.queue(answer(200, {"page": 1, "pages": 1, "items": None}))
    assert fake_client.reserved_ips.list() == []


def test_a_network_list_item_with_its_region_in_lower_case_and_a_vlan(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    vlan = {"vlan_id": 42, "cidr_v4": "10.9.0.0/24", "gateway_ipv4": "10.9.0.1"}
    attached_network = NETWORK | {"id": "attached", "region": "lon1", "vlan_connect": vlan}
    fake_api.queue(answer(200, [attached_network, NETWORK]))
    attached, plain = fake_client.networks.list()
    assert (attached.region, attached.vlan_connect) == ("LON1", vlan)
    assert (plain.region, plain.vlan_connect) == (None, None)
