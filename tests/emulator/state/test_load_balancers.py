from __future__ import annotations

from typing import Any

import pytest

from tests.support.service_api import Api, RecordingEvents

BACKEND = {"ip": "10.0.1.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}
FIELDS = {
    "id",
    "name",
    "network_id",
    "service_name",
    "algorithm",
    "backends",
    "public_ip",
    "private_ip",
    "firewall_id",
    "state",
    "max_concurrent_requests",
    "created_at",
    "external_traffic_policy",
    "session_affinity",
    "session_affinity_config_timeout",
    "enable_proxy_protocol",
    "options",
    "firewall_rule",
}


def create(api: Api, network_id: str, name: str = "lb", **extra: Any) -> dict[str, Any]:
    body = {"name": name, "network_id": network_id, "backends": [BACKEND], **extra}
    return api.ok("POST", "/loadbalancers", body)  # type: ignore[no-any-return]


def test_create_answers_the_object_without_service_name_and_not_yet_ready(
    any_api: Api, events: RecordingEvents
) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    balancer = create(any_api, network_id)
    assert set(balancer) == FIELDS - {"service_name"}
    assert (balancer["state"], balancer["public_ip"], balancer["private_ip"]) == ("", "", "")
    assert balancer["backends"] == [BACKEND]
    assert balancer["algorithm"] == "round_robin"
    assert balancer["max_concurrent_requests"] == 10000
    assert balancer["firewall_id"]  # one of its own: see below
    assert balancer["created_at"].endswith("+00:00")
    assert [event for _, event, _ in events.emitted] == ["firewall.created"]


def test_provisioning_follows_the_emulated_clock(any_api: Api) -> None:
    network = any_api.ok("GET", "/networks")[0]
    balancer = create(any_api, network["id"])
    path = f"/loadbalancers/{balancer['id']}"
    any_api.advance(1.5)
    assert any_api.ok("GET", path)["state"] == ""
    any_api.advance(0.6)
    ready = any_api.ok("GET", path)
    assert set(ready) == FIELDS
    assert ready["state"] == "available"
    assert ready["public_ip"].startswith(("203.0.113.", "198.51.100.", "192.0.2."))
    assert ready["private_ip"] == "10.0.0.2"
    assert any_api.ok("GET", "/networks")[0]["free_ip_count"] == network["free_ip_count"] - 1


def test_all_settings_are_taken(wsgi_api: Api, network: dict[str, Any]) -> None:
    firewall = wsgi_api.ok("POST", "/firewalls", {"name": "fw", "network_id": network["id"]})
    balancer = create(
        wsgi_api,
        network["id"],
        algorithm="least_connections",
        external_traffic_policy="local",
        session_affinity="ClientIP",
        session_affinity_config_timeout=60,
        enable_proxy_protocol="send",
        max_concurrent_requests=5,
        firewall_id=firewall["id"],
    )
    assert balancer["algorithm"] == "least_connections"
    assert balancer["external_traffic_policy"] == "Local"
    assert balancer["session_affinity"] == "ClientIP"
    assert balancer["session_affinity_config_timeout"] == 60
    assert balancer["enable_proxy_protocol"] == "send"
    assert balancer["max_concurrent_requests"] == 5
    assert balancer["firewall_id"] == firewall["id"]
    assert wsgi_api.ok("GET", f"/firewalls/{firewall['id']}")["loadbalancer_count"] == 1
    wsgi_api.error(409, "database_firewall_inuse", "DELETE", f"/firewalls/{firewall['id']}")


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"name": None}, "parameter_name_missing"),
        ({"network_id": None}, "parameter_network_id_missing"),
        ({"backends": None}, "parameter_backends_missing"),
        ({"backends": {"ip": "1.2.3.4"}}, "parameter_backends_invalid"),
        ({"backends": [{**BACKEND, "protocol": "SCTP"}]}, "parameter_backends_invalid"),
        ({"backends": [{**BACKEND, "source_port": 0}]}, "parameter_backends_invalid"),
        ({"backends": [{**BACKEND, "ip": "nowhere"}]}, "parameter_backends_invalid"),
        ({"backends": [{**BACKEND, "weight": 1}]}, "parameter_backends_invalid"),
        ({"algorithm": "random"}, "parameter_algorithm_invalid"),
        ({"external_traffic_policy": "Any"}, "parameter_external_traffic_policy_invalid"),
        ({"session_affinity": "Sticky"}, "parameter_session_affinity_invalid"),
        ({"enable_proxy_protocol": "yes"}, "parameter_enable_proxy_protocol_invalid"),
        ({"max_concurrent_requests": 0}, "parameter_max_concurrent_requests_invalid"),
        (
            {"session_affinity_config_timeout": "x"},
            "parameter_session_affinity_config_timeout_invalid",
        ),
    ],
)
def test_invalid_creates_are_refused(any_api: Api, change: dict[str, Any], code: str) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    body = {"name": "lb", "network_id": network_id, "backends": [BACKEND], **change}
    body = {k: v for k, v in body.items() if v is not None}
    any_api.error(400, code, "POST", "/loadbalancers", body)
    assert any_api.ok("GET", "/loadbalancers") == []


def test_references_must_exist(wsgi_api: Api, network: dict[str, Any]) -> None:
    body = {"name": "lb", "network_id": "nope", "backends": []}
    wsgi_api.error(404, "database_network_not_found", "POST", "/loadbalancers", body)
    body = {"name": "lb", "network_id": network["id"], "backends": [], "firewall_id": "nope"}
    wsgi_api.error(404, "database_firewall_not_found", "POST", "/loadbalancers", body)


def test_names_are_unique(wsgi_api: Api, network: dict[str, Any]) -> None:
    create(wsgi_api, network["id"], "a")
    body = {"name": "a", "network_id": network["id"], "backends": []}
    wsgi_api.error(409, "database_loadbalancer_duplicate_name", "POST", "/loadbalancers", body)
    second = create(wsgi_api, network["id"], "b")
    body = {"name": "a"}
    wsgi_api.error(
        409, "database_loadbalancer_duplicate_name", "PUT", f"/loadbalancers/{second['id']}", body
    )


def test_update_answers_the_full_object_and_replaces_backends(any_api: Api) -> None:
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    balancer = create(any_api, network_id)
    other = {"ip": "10.0.1.11", "protocol": "udp", "source_port": 53, "target_port": 53}
    body = {"name": "renamed", "algorithm": "least_connections", "backends": [other]}
    updated = any_api.ok("PUT", f"/loadbalancers/{balancer['id']}", body)
    assert set(updated) == FIELDS
    assert updated["name"] == "renamed" and updated["algorithm"] == "least_connections"
    assert updated["backends"] == [other | {"protocol": "UDP"}]
    assert any_api.ok("GET", "/loadbalancers") == [updated]


def test_delete_frees_the_addresses(any_api: Api, events: RecordingEvents) -> None:
    network = any_api.ok("GET", "/networks")[0]
    balancer = create(any_api, network["id"])
    assert any_api.ok("DELETE", f"/loadbalancers/{balancer['id']}") == {"result": "success"}
    any_api.error(404, "database_loadbalancer_not_found", "GET", f"/loadbalancers/{balancer['id']}")
    assert any_api.ok("GET", "/networks")[0]["free_ip_count"] == network["free_ip_count"]
    made = balancer["firewall_id"]
    assert [event[1:] for event in events.emitted] == [
        ("firewall.created", made),
        ("firewall.deleted", made),
    ]


def test_a_network_with_a_balancer_is_in_use(wsgi_api: Api, network: dict[str, Any]) -> None:
    create(wsgi_api, network["id"])
    wsgi_api.error(409, "database_network_inuse", "DELETE", f"/networks/{network['id']}")


def test_another_accounts_balancer_is_not_found(
    wsgi_api: Api, other: Api, network: dict[str, Any]
) -> None:
    balancer = create(wsgi_api, network["id"])
    other.error(404, "database_loadbalancer_not_found", "GET", f"/loadbalancers/{balancer['id']}")
    other.error(
        404, "database_loadbalancer_not_found", "DELETE", f"/loadbalancers/{balancer['id']}"
    )
    assert other.ok("GET", "/loadbalancers") == []


def test_the_create_answer_is_empty_even_without_a_delay(
    wsgi_api: Api, network: dict[str, Any]
) -> None:
    wsgi_api.app.state.settings.lb_ready_seconds = 0
    balancer = create(wsgi_api, network["id"])
    assert (balancer["state"], balancer["public_ip"], balancer["private_ip"]) == ("", "", "")
    assert wsgi_api.ok("GET", f"/loadbalancers/{balancer['id']}")["state"] == "available"


# A balancer created without a firewall gets one of its own, as every balancer the official Go
# client's answers show carries a firewall_id (its create answer to an empty request included).


def _rules(api: Api, firewall_id: str) -> list[tuple[str, str, str, tuple[str, ...]]]:
    firewall = api.ok("GET", f"/firewalls/{firewall_id}")
    return sorted(
        (r["protocol"], r["start_port"], r["end_port"], tuple(r["cidr"])) for r in firewall["rules"]
    )


def test_a_balancer_without_a_firewall_gets_one_opening_its_ports(
    wsgi_api: Api, network: dict[str, Any]
) -> None:
    dns = {"ip": "10.0.1.12", "protocol": "UDP", "source_port": 53, "target_port": 5353}
    backends = [BACKEND, {**BACKEND, "ip": "10.0.1.11"}, dns]
    body = {"name": "web", "network_id": network["id"], "backends": backends}
    balancer = wsgi_api.ok("POST", "/loadbalancers", body)
    firewall = wsgi_api.ok("GET", f"/firewalls/{balancer['firewall_id']}")
    assert firewall["name"] == f"web-lb-{balancer['id'][:8]}"
    assert firewall["network_id"] == network["id"]
    assert firewall["loadbalancer_count"] == 1
    everywhere = ("0.0.0.0/0",)
    assert _rules(wsgi_api, firewall["id"]) == [
        ("tcp", "80", "80", everywhere),
        ("udp", "53", "53", everywhere),
    ]
    assert wsgi_api.ok("GET", f"/loadbalancers/{balancer['id']}")["firewall_id"] == firewall["id"]


@pytest.mark.parametrize(
    ("wanted", "opened"),
    [
        ("80,443", [("tcp", "443", "443"), ("tcp", "80", "80")]),
        (" 8000-8080 ", [("tcp", "8000", "8080")]),
        ("all", [("icmp", "", ""), ("tcp", "1", "65535"), ("udp", "1", "65535")]),
    ],
)
def test_the_create_firewall_rule_is_what_its_firewall_opens(
    wsgi_api: Api, network: dict[str, Any], wanted: str, opened: list[tuple[str, str, str]]
) -> None:
    balancer = create(wsgi_api, network["id"], firewall_rule=wanted)
    assert [rule[:3] for rule in _rules(wsgi_api, balancer["firewall_id"])] == opened
    assert balancer["firewall_rule"] == wanted


@pytest.mark.parametrize("wanted", ["http", "80,,443", "443-80", "0", "99999"])
def test_a_firewall_rule_that_names_no_ports_is_refused_and_nothing_is_made(
    wsgi_api: Api, network: dict[str, Any], wanted: str
) -> None:
    body = {"name": "lb", "network_id": network["id"], "backends": [BACKEND]}
    refused = wsgi_api.error(
        400,
        "parameter_firewall_rule_invalid",
        "POST",
        "/loadbalancers",
        {**body, "firewall_rule": wanted},
    )
    assert "firewall_rule" in refused.body["reason"]
    assert wsgi_api.ok("GET", "/loadbalancers") == []
    assert [f["name"] for f in wsgi_api.ok("GET", "/firewalls")] == []


def test_a_given_firewall_is_used_as_it_is(wsgi_api: Api, network: dict[str, Any]) -> None:
    body = {"name": "edge", "network_id": network["id"], "create_default_rules": False}
    firewall = wsgi_api.ok("POST", "/firewalls", body)
    balancer = create(wsgi_api, network["id"], firewall_id=firewall["id"], firewall_rule="443")
    assert balancer["firewall_id"] == firewall["id"]
    assert _rules(wsgi_api, firewall["id"]) == []
    assert [f["id"] for f in wsgi_api.ok("GET", "/firewalls")] == [firewall["id"]]
    wsgi_api.ok("DELETE", f"/loadbalancers/{balancer['id']}")
    assert wsgi_api.ok("GET", f"/firewalls/{firewall['id']}")["name"] == "edge"  # not its own: kept


def test_its_own_firewall_goes_with_the_balancer_unless_another_uses_it(
    wsgi_api: Api, network: dict[str, Any]
) -> None:
    first = create(wsgi_api, network["id"], "first")
    made = first["firewall_id"]
    second = create(wsgi_api, network["id"], "second", firewall_id=made)
    wsgi_api.ok("DELETE", f"/loadbalancers/{first['id']}")
    assert wsgi_api.ok("GET", f"/firewalls/{made}")["loadbalancer_count"] == 1  # second uses it
    wsgi_api.ok("DELETE", f"/loadbalancers/{second['id']}")
    assert wsgi_api.ok("GET", f"/firewalls/{made}")["loadbalancer_count"] == 0  # not second's own

    third = create(wsgi_api, network["id"], "third")
    wsgi_api.ok("DELETE", f"/loadbalancers/{third['id']}")
    wsgi_api.error(404, "database_firewall_not_found", "GET", f"/firewalls/{third['firewall_id']}")
    quota = wsgi_api.ok("GET", "/quota")
    assert (quota["security_group_usage"], quota["security_group_rule_usage"]) == (1, 1)


def test_without_firewall_quota_no_balancer_is_made(wsgi_api: Api, network: dict[str, Any]) -> None:
    wsgi_api.admin(
        "PUT", f"/accounts/{wsgi_api.ok('GET', '/quota')['id']}/quota", {"security_group_limit": 0}
    )
    body = {"name": "lb", "network_id": network["id"], "backends": [BACKEND]}
    refused = wsgi_api.error(403, "quota_limit_reached", "POST", "/loadbalancers", body)
    assert "security_group" in refused.body["reason"]
    assert wsgi_api.ok("GET", "/loadbalancers") == []
    assert wsgi_api.ok("GET", "/quota")["public_ip_address_usage"] == 0
