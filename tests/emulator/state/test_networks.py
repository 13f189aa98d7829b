from __future__ import annotations

from typing import Any

from tests.support.service_api import Api, RecordingEvents

FULL = {
    "id",
    "name",
    "default",
    "cidr",
    "gateway_ipv4",
    "label",
    "status",
    "ipv4_enabled",
    "nameservers_v4",
    "free_ip_count",
}


def test_each_region_has_one_default_network(wsgi_api: Api) -> None:
    for region in ("LON1", "fra1", "NYC1", "PHX1"):
        networks = wsgi_api.ok("GET", "/networks", query={"region": region})
        assert [(n["label"], n["default"]) for n in networks] == [("Default", True)]
        assert set(networks[0]) == FULL


def test_create_answers_only_id_result_name_label(any_api: Api, events: RecordingEvents) -> None:
    created = any_api.ok("POST", "/networks", {"label": "app"})
    assert set(created) == {"id", "result", "name", "label"}
    assert created["result"] == "success" and created["label"] == "app"
    assert events.emitted[-1][1:] == ("network.created", created["id"])


def test_created_network_gets_a_free_24_with_gateway_and_defaults(any_api: Api) -> None:
    created = any_api.ok("POST", "/networks", {"label": "app"})
    network = any_api.ok("GET", f"/networks/{created['id']}")
    assert network == {
        "id": created["id"],
        "name": created["name"],
        "default": False,
        "cidr": "10.0.1.0/24",
        "gateway_ipv4": "10.0.1.1",
        "label": "app",
        "status": "Active",
        "ipv4_enabled": True,
        "nameservers_v4": [],
        "free_ip_count": 253,
    }


def test_create_takes_cidr_nameservers_and_ipv4_flag(any_api: Api) -> None:
    body = {
        "label": "custom",
        "cidr_v4": "192.168.10.0/28",
        "nameservers_v4": "8.8.8.8, 1.1.1.1",
        "ipv4_enabled": False,
    }
    created = any_api.ok("POST", "/networks", body)
    network = any_api.ok("GET", f"/networks/{created['id']}")
    assert network["cidr"] == "192.168.10.0/28"
    assert network["gateway_ipv4"] == "192.168.10.1"
    assert network["free_ip_count"] == 13
    assert network["nameservers_v4"] == ["8.8.8.8", "1.1.1.1"]
    assert network["ipv4_enabled"] is False


def test_nameservers_may_come_as_an_array_in_json(wsgi_api: Api) -> None:
    created = wsgi_api.ok("POST", "/networks", {"label": "a", "nameservers_v4": ["9.9.9.9"]})
    assert wsgi_api.ok("GET", f"/networks/{created['id']}")["nameservers_v4"] == ["9.9.9.9"]


def test_automatic_ranges_skip_taken_ones(wsgi_api: Api) -> None:
    wsgi_api.ok("POST", "/networks", {"label": "a", "cidr_v4": "10.0.1.0/24"})
    created = wsgi_api.ok("POST", "/networks", {"label": "b"})
    assert wsgi_api.ok("GET", f"/networks/{created['id']}")["cidr"] == "10.0.2.0/24"


def test_labels_may_repeat(wsgi_api: Api) -> None:
    wsgi_api.ok("POST", "/networks", {"label": "same"})
    wsgi_api.ok("POST", "/networks", {"label": "same"})
    assert [n["label"] for n in wsgi_api.ok("GET", "/networks")].count("same") == 2


def test_invalid_create_parameters_are_refused(any_api: Api) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({}, "parameter_label_missing"),
        ({"label": ""}, "parameter_label_missing"),
        ({"label": "a", "cidr_v4": "8.8.8.0/24"}, "parameter_cidr_v4_invalid"),
        ({"label": "a", "cidr_v4": "10.0.0.5/24"}, "parameter_cidr_v4_invalid"),
        ({"label": "a", "cidr_v4": "banana"}, "parameter_cidr_v4_invalid"),
        ({"label": "a", "cidr_v4": "10.0.0.0/30"}, "parameter_cidr_v4_invalid"),
        ({"label": "a", "nameservers_v4": "8.8.8.8,nope"}, "parameter_nameservers_v4_invalid"),
        ({"label": "a", "ipv4_enabled": "maybe"}, "parameter_ipv4_enabled_invalid"),
    ]
    for body, code in cases:
        any_api.error(400, code, "POST", "/networks", body)
    assert len(any_api.ok("GET", "/networks")) == 1


def test_label_must_be_text_in_json(wsgi_api: Api) -> None:
    wsgi_api.error(400, "parameter_label_invalid", "POST", "/networks", {"label": 5})


def test_update_relabels_and_answers_id_result_label(any_api: Api, events: RecordingEvents) -> None:
    created = any_api.ok("POST", "/networks", {"label": "old"})
    updated = any_api.ok("PUT", f"/networks/{created['id']}", {"label": "new", "region": "LON1"})
    assert updated == {"id": created["id"], "result": "success", "label": "new"}
    assert any_api.ok("GET", f"/networks/{created['id']}")["label"] == "new"
    assert events.names()[-1] == "network.updated"
    any_api.error(400, "parameter_label_missing", "PUT", f"/networks/{created['id']}", {})


def test_delete_removes_the_network(any_api: Api, events: RecordingEvents) -> None:
    created = any_api.ok("POST", "/networks", {"label": "gone"})
    reply = any_api.ok("DELETE", f"/networks/{created['id']}", query={"region": "LON1"})
    assert reply == {"result": "success"}
    any_api.error(404, "database_network_not_found", "GET", f"/networks/{created['id']}")
    any_api.error(404, "database_network_not_found", "DELETE", f"/networks/{created['id']}")
    assert events.emitted[-1][1:] == ("network.deleted", created["id"])


def test_the_default_network_cannot_be_deleted(wsgi_api: Api) -> None:
    default = wsgi_api.ok("GET", "/networks")[0]
    wsgi_api.error(409, "network_delete_default", "DELETE", f"/networks/{default['id']}")


def test_a_network_is_deleted_with_its_firewalls_and_their_rules(
    wsgi_api: Api, network: dict[str, Any], events: RecordingEvents
) -> None:
    """As the official clients expect: each makes a firewall per network and deletes the
    network alone."""
    body = {"name": "fw", "network_id": network["id"], "create_default_rules": False}
    firewall = wsgi_api.ok(
        "POST", "/firewalls", {**body, "rules": [{"protocol": "tcp", "ports": "22"}]}
    )
    second = wsgi_api.ok("POST", "/firewalls", {"name": "fw2", "network_id": network["id"]})
    elsewhere = wsgi_api.ok("POST", "/firewalls", {"name": "kept"})  # on the default network
    events.reset()

    assert wsgi_api.ok("DELETE", f"/networks/{network['id']}") == {"result": "success"}

    for gone in (firewall, second):
        wsgi_api.error(404, "database_firewall_not_found", "GET", f"/firewalls/{gone['id']}")
    assert [f["id"] for f in wsgi_api.ok("GET", "/firewalls")] == [elsewhere["id"]]
    assert [event[1:] for event in events.emitted] == [
        ("firewall.deleted", firewall["id"]),
        ("firewall.deleted", second["id"]),
        ("network.deleted", network["id"]),
    ]
    quota = wsgi_api.ok("GET", "/quota")
    assert (quota["security_group_usage"], quota["security_group_rule_usage"]) == (1, 3)


def test_a_network_stays_in_use_while_a_balancer_uses_one_of_its_firewalls(
    wsgi_api: Api, network: dict[str, Any]
) -> None:
    """A firewall a balancer uses cannot go, so neither can its network: nothing is deleted."""
    firewall = wsgi_api.ok("POST", "/firewalls", {"name": "fw", "network_id": network["id"]})
    other = wsgi_api.ok("POST", "/networks", {"label": "lb-net"})
    backend = {"ip": "10.0.0.5", "protocol": "TCP", "source_port": 80, "target_port": 80}
    balancer = {"name": "web", "network_id": other["id"], "backends": [backend]}
    made = wsgi_api.ok("POST", "/loadbalancers", {**balancer, "firewall_id": firewall["id"]})
    refused = wsgi_api.error(409, "database_network_inuse", "DELETE", f"/networks/{network['id']}")
    assert f"load balancer 'web' ({made['id']}) through its firewall 'fw'" in refused.body["reason"]
    assert wsgi_api.ok("GET", f"/firewalls/{firewall['id']}")["name"] == "fw"


def test_networks_live_in_their_region(wsgi_api: Api) -> None:
    created = wsgi_api.ok("POST", "/networks", {"label": "fra", "region": "FRA1"})
    wsgi_api.ok("GET", f"/networks/{created['id']}", query={"region": "fra1"})
    wsgi_api.error(404, "database_network_not_found", "GET", f"/networks/{created['id']}")
    labels = [n["label"] for n in wsgi_api.ok("GET", "/networks", query={"region": "FRA1"})]
    assert labels == ["Default", "fra"]
    assert [n["label"] for n in wsgi_api.ok("GET", "/networks")] == ["Default"]


def test_another_accounts_network_is_not_found(wsgi_api: Api, other: Api) -> None:
    created = wsgi_api.ok("POST", "/networks", {"label": "mine"})
    other.error(404, "database_network_not_found", "GET", f"/networks/{created['id']}")
    other.error(
        404, "database_network_not_found", "PUT", f"/networks/{created['id']}", {"label": "x"}
    )
    other.error(404, "database_network_not_found", "DELETE", f"/networks/{created['id']}")
    assert [n["label"] for n in other.ok("GET", "/networks")] == ["Default"]
