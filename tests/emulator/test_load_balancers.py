from __future__ import annotations

from typing import Any

import pytest

from .service_api import Api, RecordingEvents

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
    assert balancer["firewall_id"] == ""
    assert balancer["created_at"].endswith("+00:00")
    assert events.emitted == []


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


def test_all_settings_are_taken(api: Api, network: dict[str, Any]) -> None:
    firewall = api.ok("POST", "/firewalls", {"name": "fw", "network_id": network["id"]})
    balancer = create(
        api,
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
    assert api.ok("GET", f"/firewalls/{firewall['id']}")["loadbalancer_count"] == 1
    api.error(409, "database_firewall_inuse", "DELETE", f"/firewalls/{firewall['id']}")


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


def test_references_must_exist(api: Api, network: dict[str, Any]) -> None:
    body = {"name": "lb", "network_id": "nope", "backends": []}
    api.error(404, "database_network_not_found", "POST", "/loadbalancers", body)
    body = {"name": "lb", "network_id": network["id"], "backends": [], "firewall_id": "nope"}
    api.error(404, "database_firewall_not_found", "POST", "/loadbalancers", body)


def test_names_are_unique(api: Api, network: dict[str, Any]) -> None:
    create(api, network["id"], "a")
    body = {"name": "a", "network_id": network["id"], "backends": []}
    api.error(409, "database_loadbalancer_duplicate_name", "POST", "/loadbalancers", body)
    second = create(api, network["id"], "b")
    body = {"name": "a"}
    api.error(
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
    assert events.emitted == []


def test_a_network_with_a_balancer_is_in_use(api: Api, network: dict[str, Any]) -> None:
    create(api, network["id"])
    api.error(409, "database_network_inuse", "DELETE", f"/networks/{network['id']}")


def test_another_accounts_balancer_is_not_found(
    api: Api, other: Api, network: dict[str, Any]
) -> None:
    balancer = create(api, network["id"])
    other.error(404, "database_loadbalancer_not_found", "GET", f"/loadbalancers/{balancer['id']}")
    other.error(
        404, "database_loadbalancer_not_found", "DELETE", f"/loadbalancers/{balancer['id']}"
    )
    assert other.ok("GET", "/loadbalancers") == []


def test_the_create_answer_is_empty_even_without_a_delay(api: Api, network: dict[str, Any]) -> None:
    api.app.state.settings.lb_ready_seconds = 0
    balancer = create(api, network["id"])
    assert (balancer["state"], balancer["public_ip"], balancer["private_ip"]) == ("", "", "")
    assert api.ok("GET", f"/loadbalancers/{balancer['id']}")["state"] == "available"
