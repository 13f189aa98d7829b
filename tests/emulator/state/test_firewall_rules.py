from __future__ import annotations

from typing import Any

import pytest

from tests.support.service_api import Api, RecordingEvents

CREATE_FIELDS = {
    "id",
    "firewall_id",
    "protocol",
    "start_port",
    "cidr",
    "direction",
    "label",
    "end_port",
    "action",
}


@pytest.fixture
def bare_firewall(wsgi_api: Api, network: dict[str, Any]) -> dict[str, Any]:
    """A firewall made without the three default rules."""
    body = {"name": "web", "network_id": network["id"], "create_default_rules": False}
    return wsgi_api.ok("POST", "/firewalls", body)


def rules_path(firewall: dict[str, Any]) -> str:
    return f"/firewalls/{firewall['id']}/rules"


def test_create_answers_the_rule_without_ports(any_api: Api, events: RecordingEvents) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    body = {"name": "fw", "network_id": network_id, "create_default_rules": False}
    firewall = any_api.ok("POST", "/firewalls", body)
    rule = any_api.ok(
        "POST",
        rules_path(firewall),
        {"protocol": "tcp", "start_port": "80", "end_port": "443", "region": "LON1"},
    )
    assert set(rule) == CREATE_FIELDS
    assert rule | {"id": ""} == {
        "id": "",
        "firewall_id": firewall["id"],
        "protocol": "tcp",
        "start_port": "80",
        "end_port": "443",
        "cidr": ["0.0.0.0/0"],
        "direction": "ingress",
        "label": "",
        "action": "allow",
    }
    assert events.emitted[-1][1:] == ("firewall_rule.created", rule["id"])
    listed = any_api.ok("GET", rules_path(firewall))
    assert listed == [rule | {"ports": "80-443"}]


def test_all_rule_fields_are_taken(any_api: Api) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    body = {"name": "fw", "network_id": network_id, "create_default_rules": False}
    firewall = any_api.ok("POST", "/firewalls", body)
    body = {
        "protocol": "UDP",
        "start_port": "53",
        "cidr": ["10.0.0.0/8", "192.168.1.0/24"],
        "direction": "egress",
        "label": "dns",
        "action": "deny",
    }
    rule = any_api.ok("POST", rules_path(firewall), body)
    assert (rule["protocol"], rule["start_port"], rule["end_port"]) == ("udp", "53", "53")
    assert rule["cidr"] == ["10.0.0.0/8", "192.168.1.0/24"]
    assert (rule["direction"], rule["label"], rule["action"]) == ("egress", "dns", "deny")
    assert any_api.ok("GET", rules_path(firewall))[0]["ports"] == "53"


def test_cidr_may_be_one_text(wsgi_api: Api, bare_firewall: dict[str, Any]) -> None:
    for form in (False, True):
        body = {"protocol": "tcp", "start_port": 22, "cidr": "203.0.113.0/24"}
        rule = wsgi_api.ok("POST", rules_path(bare_firewall), body, form=form)
        assert rule["cidr"] == ["203.0.113.0/24"]


def test_icmp_takes_no_ports(wsgi_api: Api, bare_firewall: dict[str, Any]) -> None:
    rule = wsgi_api.ok("POST", rules_path(bare_firewall), {"protocol": "icmp"})
    assert (rule["start_port"], rule["end_port"]) == ("", "")
    body = {"protocol": "icmp", "start_port": "1"}
    wsgi_api.error(400, "parameter_start_port_invalid", "POST", rules_path(bare_firewall), body)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "parameter_protocol_missing"),
        ({"protocol": "gre", "start_port": "1"}, "parameter_protocol_invalid"),
        ({"protocol": "tcp"}, "parameter_start_port_missing"),
        ({"protocol": "tcp", "start_port": "0"}, "parameter_start_port_invalid"),
        ({"protocol": "tcp", "start_port": "65536"}, "parameter_start_port_invalid"),
        ({"protocol": "tcp", "start_port": "http"}, "parameter_start_port_invalid"),
        ({"protocol": "tcp", "start_port": "80", "end_port": "79"}, "parameter_end_port_invalid"),
        ({"protocol": "tcp", "start_port": "1", "cidr": "nope"}, "parameter_cidr_invalid"),
        ({"protocol": "tcp", "start_port": "1", "cidr": []}, "parameter_cidr_invalid"),
        ({"protocol": "tcp", "start_port": "1", "direction": "up"}, "parameter_direction_invalid"),
        ({"protocol": "tcp", "start_port": "1", "action": "maybe"}, "parameter_action_invalid"),
    ],
)
def test_invalid_rules_are_refused(any_api: Api, body: dict[str, Any], code: str) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    fw = {"name": "fw", "network_id": network_id, "create_default_rules": False}
    firewall = any_api.ok("POST", "/firewalls", fw)
    any_api.error(400, code, "POST", rules_path(firewall), body)
    assert any_api.ok("GET", rules_path(firewall)) == []


def test_form_cidr_must_be_json_when_it_looks_like_json(
    wsgi_api: Api, bare_firewall: dict[str, Any]
) -> None:
    body = {"protocol": "tcp", "start_port": "1", "cidr": "[broken"}
    wsgi_api.error(
        400, "parameter_cidr_invalid", "POST", rules_path(bare_firewall), body, form=True
    )


def test_update_changes_fields_and_emits_firewall_updated(
    any_api: Api, events: RecordingEvents
) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    fw = {"name": "fw", "network_id": network_id, "create_default_rules": False}
    firewall = any_api.ok("POST", "/firewalls", fw)
    rule = any_api.ok("POST", rules_path(firewall), {"protocol": "tcp", "start_port": "80"})
    path = f"{rules_path(firewall)}/{rule['id']}"
    body = {"start_port": "8000", "end_port": "8080", "label": "alt", "cidr": "10.0.0.0/8"}
    assert any_api.ok("PUT", path, body) == {"id": rule["id"], "result": "success"}
    assert events.emitted[-1][1:] == ("firewall.updated", firewall["id"])
    updated = any_api.ok("GET", rules_path(firewall))[0]
    assert (updated["ports"], updated["label"], updated["cidr"]) == (
        "8000-8080",
        "alt",
        ["10.0.0.0/8"],
    )
    any_api.ok("PUT", path, {"start_port": "9000"})
    assert any_api.ok("GET", rules_path(firewall))[0]["ports"] == "9000"
    any_api.ok("PUT", path, {"protocol": "icmp"})
    assert any_api.ok("GET", rules_path(firewall))[0]["ports"] == ""
    any_api.error(400, "parameter_start_port_missing", "PUT", path, {"protocol": "udp"})
    any_api.ok("PUT", path, {"protocol": "udp", "start_port": "53", "direction": "egress"})
    updated = any_api.ok("GET", rules_path(firewall))[0]
    assert (updated["protocol"], updated["ports"], updated["direction"]) == ("udp", "53", "egress")


def test_update_cannot_change_the_action(wsgi_api: Api, bare_firewall: dict[str, Any]) -> None:
    rule = wsgi_api.ok("POST", rules_path(bare_firewall), {"protocol": "tcp", "start_port": "80"})
    path = f"{rules_path(bare_firewall)}/{rule['id']}"
    wsgi_api.error(400, "parameter_action_invalid", "PUT", path, {"action": "deny"})
    wsgi_api.ok("PUT", path, {"action": "allow"})
    assert wsgi_api.ok("GET", rules_path(bare_firewall))[0]["action"] == "allow"


def test_update_validates_like_create(wsgi_api: Api, bare_firewall: dict[str, Any]) -> None:
    rule = wsgi_api.ok("POST", rules_path(bare_firewall), {"protocol": "tcp", "start_port": "80"})
    path = f"{rules_path(bare_firewall)}/{rule['id']}"
    wsgi_api.error(400, "parameter_end_port_invalid", "PUT", path, {"end_port": "10"})
    wsgi_api.error(400, "parameter_protocol_invalid", "PUT", path, {"protocol": "sctp"})
    assert wsgi_api.ok("GET", rules_path(bare_firewall))[0]["ports"] == "80"


def test_delete_answers_the_firewall_id_and_name(any_api: Api, events: RecordingEvents) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    firewall = any_api.ok("POST", "/firewalls", {"name": "fw", "network_id": network_id})
    rule = any_api.ok("GET", rules_path(firewall))[0]
    reply = any_api.ok("DELETE", f"{rules_path(firewall)}/{rule['id']}", query={"region": "LON1"})
    assert reply == {"id": firewall["id"], "result": "success", "name": "fw"}
    assert events.emitted[-1][1:] == ("firewall_rule.deleted", rule["id"])
    assert len(any_api.ok("GET", rules_path(firewall))) == 2
    path = f"{rules_path(firewall)}/{rule['id']}"
    any_api.error(404, "database_firewall_rule_not_found", "DELETE", path)
    any_api.error(404, "database_firewall_rule_not_found", "PUT", path, {"label": "x"})


def test_rules_of_an_unknown_firewall(wsgi_api: Api) -> None:
    wsgi_api.error(404, "database_firewall_not_found", "GET", "/firewalls/nope/rules")
    body = {"protocol": "tcp", "start_port": "1"}
    wsgi_api.error(404, "database_firewall_not_found", "POST", "/firewalls/nope/rules", body)
