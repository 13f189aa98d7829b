from __future__ import annotations

from typing import Any

from tests.support.service_api import Api, RecordingEvents

BACKEND = {"ip": "10.0.0.9", "protocol": "TCP", "source_port": 80, "target_port": 80}


def balancer(api: Api, name: str = "lb") -> dict[str, Any]:
    network_id = api.ok("GET", "/networks")[0]["id"]
    body = {"name": name, "network_id": network_id, "backends": [BACKEND]}
    return api.ok("POST", "/loadbalancers", body)  # type: ignore[no-any-return]


def test_create_answers_id_and_name_only(any_api: Api, events: RecordingEvents) -> None:
    created = any_api.ok("POST", "/ips", {"name": "front", "region": "LON1"})
    assert set(created) == {"id", "name"} and created["name"] == "front"
    assert events.emitted[-1][1:] == ("ip.created", created["id"])
    shown = any_api.ok("GET", f"/ips/{created['id']}")
    assert shown == {"id": created["id"], "name": "front", "ip": "203.0.113.1"}


def test_list_items_carry_assigned_to_as_a_retrieve_does(any_api: Api) -> None:
    """The official CLI's ``ip ls`` and ``vpc ip show`` read ``assigned_to`` from the list."""
    reserved = any_api.ok("POST", "/ips", {"name": "front"})
    any_api.ok("POST", "/ips", {"name": "spare"})
    lb = balancer(any_api)
    body = {"action": "assign", "assign_to_id": lb["id"]}
    any_api.ok("POST", f"/ips/{reserved['id']}/actions", body)
    items = {i["name"]: i for i in any_api.ok("GET", "/ips")["items"]}
    assert items["front"] == any_api.ok("GET", f"/ips/{reserved['id']}")
    assert items["front"]["assigned_to"] == {"id": lb["id"], "type": "loadbalancer", "name": "lb"}
    assert "assigned_to" not in items["spare"]


def test_list_is_paginated_with_id_name_ip(any_api: Api) -> None:
    for n in range(3):
        any_api.ok("POST", "/ips", {"name": f"ip{n}"})
    page = any_api.ok("GET", "/ips")
    assert (page["page"], page["per_page"], page["pages"]) == (1, 20, 1)
    assert [set(i) for i in page["items"]] == [{"id", "name", "ip"}] * 3
    assert len({i["ip"] for i in page["items"]}) == 3
    second = any_api.ok("GET", "/ips", query={"page": 2, "per_page": 2})
    assert (second["page"], second["per_page"], second["pages"]) == (2, 2, 2)
    assert [i["name"] for i in second["items"]] == ["ip2"]
    assert any_api.ok("GET", "/ips", query={"page": 9})["items"] == []


def test_pagination_parameters_are_checked(wsgi_api: Api) -> None:
    for query, code in (
        ({"page": "0"}, "parameter_page_invalid"),
        ({"page": "two"}, "parameter_page_invalid"),
        ({"per_page": "-1"}, "parameter_per_page_invalid"),
    ):
        wsgi_api.error(400, code, "GET", "/ips", query=query)
    assert wsgi_api.ok("GET", "/ips", query={"per_page": 100})["pages"] == 1


def test_names_are_unique(wsgi_api: Api) -> None:
    wsgi_api.ok("POST", "/ips", {"name": "a"})
    wsgi_api.error(409, "database_ip_duplicate_name", "POST", "/ips", {"name": "a"})
    wsgi_api.ok("POST", "/ips", {"name": "a", "region": "FRA1"})


def test_an_ip_reserved_without_a_name_is_named_by_its_address(
    any_api: Api, events: RecordingEvents
) -> None:
    """The spec marks ``name`` required; the official Go client documents it optional ("If not
    provided, name will be the IP address") and the CLI's ``ip reserve`` sends none."""
    for body in ({}, {"name": ""}):
        created = any_api.ok("POST", "/ips", body)
        shown = any_api.ok("GET", f"/ips/{created['id']}")
        assert created["name"] == shown["name"] == shown["ip"]
        assert events.emitted[-1][1:] == ("ip.created", created["id"])
    renamed = any_api.ok("PUT", f"/ips/{created['id']}", {"name": "front"})
    assert renamed["name"] == "front"


def test_update_renames_and_answers_id_and_name(any_api: Api, events: RecordingEvents) -> None:
    created = any_api.ok("POST", "/ips", {"name": "a"})
    any_api.ok("POST", "/ips", {"name": "b"})
    updated = any_api.ok("PUT", f"/ips/{created['id']}", {"name": "c", "region": "LON1"})
    assert updated == {"id": created["id"], "name": "c"}
    assert events.emitted[-1][1:] == ("ip.updated", created["id"])
    any_api.error(409, "database_ip_duplicate_name", "PUT", f"/ips/{created['id']}", {"name": "b"})


def test_assign_and_unassign(any_api: Api, events: RecordingEvents) -> None:
    reserved = any_api.ok("POST", "/ips", {"name": "front"})
    lb = balancer(any_api)
    actions = f"/ips/{reserved['id']}/actions"
    body = {"action": "assign", "assign_to_id": lb["id"], "region": "LON1"}
    assert any_api.ok("POST", actions, body) == {"result": "success"}
    assert events.emitted[-1][1:] == ("ip.updated", reserved["id"])
    shown = any_api.ok("GET", f"/ips/{reserved['id']}")
    assert shown["assigned_to"] == {"id": lb["id"], "type": "loadbalancer", "name": "lb"}
    any_api.advance(5)
    ip = any_api.ok("GET", f"/ips/{reserved['id']}")["ip"]
    assert any_api.ok("GET", f"/loadbalancers/{lb['id']}")["public_ip"] == ip
    assert any_api.ok("POST", actions, {"action": "unassign"}) == {"result": "success"}
    assert "assigned_to" not in any_api.ok("GET", f"/ips/{reserved['id']}")
    assert any_api.ok("GET", f"/loadbalancers/{lb['id']}")["public_ip"] != ip
    count = len(events.emitted)
    assert any_api.ok("POST", actions, {"action": "unassign"}) == {"result": "success"}
    assert len(events.emitted) == count


def test_assigning_moves_the_balancers_previous_ip(wsgi_api: Api) -> None:
    first = wsgi_api.ok("POST", "/ips", {"name": "first"})
    second = wsgi_api.ok("POST", "/ips", {"name": "second"})
    lb = balancer(wsgi_api)
    for reserved in (first, second):
        wsgi_api.ok(
            "POST", f"/ips/{reserved['id']}/actions", {"action": "assign", "assign_to_id": lb["id"]}
        )
    assert "assigned_to" not in wsgi_api.ok("GET", f"/ips/{first['id']}")
    assert wsgi_api.ok("GET", f"/ips/{second['id']}")["assigned_to"]["id"] == lb["id"]


def test_deleting_the_balancer_unassigns(wsgi_api: Api) -> None:
    reserved = wsgi_api.ok("POST", "/ips", {"name": "front"})
    lb = balancer(wsgi_api)
    wsgi_api.ok(
        "POST", f"/ips/{reserved['id']}/actions", {"action": "assign", "assign_to_id": lb["id"]}
    )
    wsgi_api.ok("DELETE", f"/loadbalancers/{lb['id']}")
    assert "assigned_to" not in wsgi_api.ok("GET", f"/ips/{reserved['id']}")


def test_actions_are_validated(wsgi_api: Api, other: Api) -> None:
    reserved = wsgi_api.ok("POST", "/ips", {"name": "front"})
    actions = f"/ips/{reserved['id']}/actions"
    wsgi_api.error(400, "parameter_action_missing", "POST", actions, {})
    wsgi_api.error(400, "parameter_action_invalid", "POST", actions, {"action": "attach"})
    wsgi_api.error(400, "parameter_assign_to_id_missing", "POST", actions, {"action": "assign"})
    body = {"action": "assign", "assign_to_id": "nope"}
    wsgi_api.error(404, "database_loadbalancer_not_found", "POST", actions, body)
    body = {**body, "assign_to_type": "loadbalancer"}
    wsgi_api.error(404, "database_loadbalancer_not_found", "POST", actions, body)
    body = {**body, "assign_to_type": "instance"}  # the emulator serves no instances
    refused = wsgi_api.error(404, "database_instance_not_found", "POST", actions, body)
    assert refused.body["reason"] == "The instance was not found"
    body = {**body, "assign_to_type": "cluster"}
    refused = wsgi_api.error(400, "parameter_assign_to_type_invalid", "POST", actions, body)
    assert "loadbalancer" in refused.body["reason"] and "instance" in refused.body["reason"]
    theirs = balancer(other)
    body = {"action": "assign", "assign_to_id": theirs["id"]}
    wsgi_api.error(404, "database_loadbalancer_not_found", "POST", actions, body)
    other.error(404, "database_ip_not_found", "POST", actions, {"action": "unassign"})


def test_delete_frees_the_address(any_api: Api, events: RecordingEvents) -> None:
    created = any_api.ok("POST", "/ips", {"name": "a"})
    assert any_api.ok("DELETE", f"/ips/{created['id']}") == {"result": "success"}
    assert events.emitted[-1][1:] == ("ip.deleted", created["id"])
    any_api.error(404, "database_ip_not_found", "GET", f"/ips/{created['id']}")
    again = any_api.ok("POST", "/ips", {"name": "b"})
    assert any_api.ok("GET", f"/ips/{again['id']}")["ip"] == "203.0.113.1"


def test_another_accounts_ip_is_not_found(wsgi_api: Api, other: Api) -> None:
    created = wsgi_api.ok("POST", "/ips", {"name": "a"})
    other.error(404, "database_ip_not_found", "GET", f"/ips/{created['id']}")
    other.error(404, "database_ip_not_found", "PUT", f"/ips/{created['id']}", {"name": "x"})
    other.error(404, "database_ip_not_found", "DELETE", f"/ips/{created['id']}")
    assert other.ok("GET", "/ips")["items"] == []
