from __future__ import annotations

from typing import Any

import pytest

from tests.support.service_api import Api, RecordingEvents

FIREWALL_FIELDS = {
    "id",
    "name",
    "account_id",
    "rules_count",
    "instance_count",
    "cluster_count",
    "loadbalancer_count",
    "default",
    "label",
    "network_id",
    "rules",
}


@pytest.fixture
def firewall(wsgi_api: Api, network: dict[str, Any]) -> dict[str, Any]:
    created = wsgi_api.ok("POST", "/firewalls", {"name": "web", "network_id": network["id"]})
    return wsgi_api.ok("GET", f"/firewalls/{created['id']}")


def test_create_answers_id_result_name(any_api: Api, events: RecordingEvents) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    body = {"name": "web", "network_id": network_id, "region": "LON1"}
    created = any_api.ok("POST", "/firewalls", body)
    assert set(created) == {"id", "result", "name"}
    assert (created["result"], created["name"]) == ("success", "web")
    assert events.emitted[-1][1:] == ("firewall.created", created["id"])


def test_a_new_firewall_has_the_three_default_rules(any_api: Api) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    created = any_api.ok("POST", "/firewalls", {"name": "web", "network_id": network_id})
    firewall = any_api.ok("GET", f"/firewalls/{created['id']}")
    assert set(firewall) == FIREWALL_FIELDS
    assert firewall["rules_count"] == 3 and firewall["default"] == "false"
    assert firewall["network_id"] == network_id
    assert [(r["protocol"], r["ports"], r["cidr"], r["direction"]) for r in firewall["rules"]] == [
        ("tcp", "1-65535", ["0.0.0.0/0"], "ingress"),
        ("udp", "1-65535", ["0.0.0.0/0"], "ingress"),
        ("icmp", "", ["0.0.0.0/0"], "ingress"),
    ]
    assert all("firewall_id" not in r for r in firewall["rules"])


def test_default_rules_can_be_left_out(any_api: Api) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    body = {"name": "bare", "network_id": network_id, "create_default_rules": False}
    created = any_api.ok("POST", "/firewalls", body)
    assert any_api.ok("GET", f"/firewalls/{created['id']}")["rules"] == []


def test_create_validates(wsgi_api: Api, network: dict[str, Any]) -> None:
    wsgi_api.error(
        400, "parameter_name_missing", "POST", "/firewalls", {"network_id": network["id"]}
    )
    body = {"name": "a", "network_id": "nope"}
    wsgi_api.error(404, "database_network_not_found", "POST", "/firewalls", body)
    body = {"name": "a", "network_id": network["id"], "region": "FRA1"}
    wsgi_api.error(404, "database_network_not_found", "POST", "/firewalls", body)


def test_a_firewall_without_a_network_is_on_the_regions_default_network(wsgi_api: Api) -> None:
    for body in ({"name": "a"}, {"name": "b", "network_id": ""}):
        created = wsgi_api.ok("POST", "/firewalls", body)
        default = next(n for n in wsgi_api.ok("GET", "/networks") if n["default"])
        assert wsgi_api.ok("GET", f"/firewalls/{created['id']}")["network_id"] == default["id"]
    fra = wsgi_api.ok("POST", "/firewalls", {"name": "c", "region": "FRA1"})
    fra_default = wsgi_api.ok("GET", "/networks", query={"region": "FRA1"})[0]
    assert fra_default["default"]
    got = wsgi_api.ok("GET", f"/firewalls/{fra['id']}", query={"region": "FRA1"})
    assert got["network_id"] == fra_default["id"]


def test_names_are_unique_per_region(wsgi_api: Api, firewall: dict[str, Any]) -> None:
    body = {"name": "web", "network_id": firewall["network_id"]}
    wsgi_api.error(409, "database_firewall_duplicate_name", "POST", "/firewalls", body)
    fra_network = wsgi_api.ok("GET", "/networks", query={"region": "FRA1"})[0]["id"]
    wsgi_api.ok("POST", "/firewalls", {"name": "web", "network_id": fra_network, "region": "FRA1"})


def test_update_renames(any_api: Api, events: RecordingEvents) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    first = any_api.ok("POST", "/firewalls", {"name": "a", "network_id": network_id})
    any_api.ok("POST", "/firewalls", {"name": "b", "network_id": network_id})
    renamed = any_api.ok("PUT", f"/firewalls/{first['id']}", {"name": "c", "region": "LON1"})
    assert renamed == {"id": first["id"], "result": "success", "name": "c"}
    assert events.emitted[-1][1:] == ("firewall.updated", first["id"])
    any_api.error(
        409, "database_firewall_duplicate_name", "PUT", f"/firewalls/{first['id']}", {"name": "b"}
    )
    assert any_api.ok("PUT", f"/firewalls/{first['id']}", {"name": "c"})["name"] == "c"


def test_delete(any_api: Api, events: RecordingEvents) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    created = any_api.ok("POST", "/firewalls", {"name": "a", "network_id": network_id})
    assert any_api.ok("DELETE", f"/firewalls/{created['id']}") == {"result": "success"}
    assert events.emitted[-1][1:] == ("firewall.deleted", created["id"])
    any_api.error(404, "database_firewall_not_found", "GET", f"/firewalls/{created['id']}")
    assert any_api.ok("GET", "/firewalls") == []


def test_list(wsgi_api: Api, firewall: dict[str, Any]) -> None:
    assert wsgi_api.ok("GET", "/firewalls") == [firewall]
    assert wsgi_api.ok("GET", "/firewalls", query={"region": "NYC1"}) == []


def test_another_accounts_firewall_is_not_found(other: Api, firewall: dict[str, Any]) -> None:
    other.error(404, "database_firewall_not_found", "GET", f"/firewalls/{firewall['id']}")
    other.error(404, "database_firewall_not_found", "GET", f"/firewalls/{firewall['id']}/rules")
    assert other.ok("GET", "/firewalls") == []
