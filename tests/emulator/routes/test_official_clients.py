"""The request shapes of the service's official clients (its Go client and Terraform provider),
each sent exactly as they send it, answered as the service does: empty strings for absent
optional fields, PUT for PATCH, the other field names and spellings, large pages, backend health
check ports; and fields nobody reads listed in the request log, or refused when strict."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from altostratus.emulator import Emulator
from altostratus.emulator.app import EmulatorApp
from altostratus.emulator.reading.bodies import BODIES
from tests.support.service_api import Api

from ..serving.test_server import call

BACKEND = {"ip": "10.0.1.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}


def rules_of(api: Api, firewall_id: str) -> list[dict[str, Any]]:
    return api.ok("GET", f"/firewalls/{firewall_id}/rules")  # type: ignore[no-any-return]


@pytest.fixture
def firewall_id(wsgi_api: Api, network: dict[str, Any]) -> str:
    body = {"name": "fw", "network_id": network["id"], "create_default_rules": False}
    return wsgi_api.ok("POST", "/firewalls", body)["id"]  # type: ignore[no-any-return]


# Empty strings for absent optional fields


def test_network_create_with_an_empty_cidr_allocates_one(any_api: Api) -> None:
    created = any_api.ok("POST", "/networks", {"label": "app", "cidr_v4": ""})
    network = any_api.ok("GET", f"/networks/{created['id']}")
    assert network["cidr"].startswith("10.") and network["cidr"].endswith("/24")


def test_webhook_create_with_an_empty_secret_gets_a_generated_one(any_api: Api) -> None:
    body = {"url": "https://hooks.example.com/a", "events": ["*"], "secret": ""}
    created = any_api.ok("POST", "/webhooks", body)
    (webhook,) = any_api.ok("GET", "/webhooks")
    assert webhook["id"] == created["id"]
    assert len(webhook["secret"]) == 40 and int(webhook["secret"], 16) >= 0


def test_webhook_update_of_events_only_with_empty_url_and_secret(any_api: Api) -> None:
    body = {"url": "https://hooks.example.com/a", "secret": "s3cret"}
    created = any_api.ok("POST", "/webhooks", body)
    update = {"url": "", "secret": "", "events": ["network.created"]}
    updated = any_api.ok("PUT", f"/webhooks/{created['id']}", update)
    assert updated["events"] == ["network.created"]
    assert (updated["url"], updated["secret"]) == ("https://hooks.example.com/a", "s3cret")


def test_unassign_with_an_empty_assign_to_id(any_api: Api) -> None:
    reserved = any_api.ok("POST", "/ips", {"name": "front"})
    body = {"action": "unassign", "assign_to_id": ""}
    assert any_api.ok("POST", f"/ips/{reserved['id']}/actions", body) == {"result": "success"}


def test_a_rule_with_an_empty_action_allows(any_api: Api, firewall_id: str) -> None:
    body = {"protocol": "tcp", "start_port": "22", "action": ""}
    rule = any_api.ok("POST", f"/firewalls/{firewall_id}/rules", body)
    assert rule["action"] == "allow"


def test_a_rule_update_with_an_empty_action_keeps_it_and_an_empty_label_clears(
    wsgi_api: Api, firewall_id: str
) -> None:
    path = f"/firewalls/{firewall_id}/rules"
    body = {"protocol": "tcp", "start_port": "22", "action": "deny", "label": "ssh"}
    rule = wsgi_api.ok("POST", path, body)
    wsgi_api.ok("PUT", f"{path}/{rule['id']}", {"start_port": "23", "action": "", "label": ""})
    (changed,) = rules_of(wsgi_api, firewall_id)
    assert (changed["start_port"], changed["action"], changed["label"]) == ("23", "deny", "")


#: Creates with every optional text field the official Go client sends as its zero value "".
ZERO_VALUED_CREATES = {
    "network": (
        "/networks",
        {"label": "app"},
        {"ipv4_enabled": "", "cidr_v4": "", "nameservers_v4": ""},
    ),
    "firewall": ("/firewalls", {"name": "fw"}, {"create_default_rules": ""}),
    "balancer": (
        "/loadbalancers",
        {"name": "lb", "backends": [BACKEND]},
        {
            "algorithm": "",
            "external_traffic_policy": "",
            "session_affinity": "",
            "session_affinity_config_timeout": "",
            "max_concurrent_requests": "",
            "firewall_id": "",
        },
    ),
    "credential": (
        "/objectstore/credentials",
        {"name": "c"},
        {"access_key_id": "", "secret_access_key_id": "", "max_size_gb": ""},
    ),
    "object store": ("/objectstores", {"name": "s"}, {"size": "", "access_key_id": ""}),
}


#: What differs between two records made alike.
OWN = {
    "id",
    "name",
    "cidr",
    "gateway_ipv4",
    "access_key_id",
    "secret_access_key_id",
    "service_name",
    "public_ip",
    "private_ip",
    "created_at",
    "objectstore_endpoint",
    "owner_info",
    "firewall_id",  # a balancer's own firewall
}


def alike(value: Any) -> Any:
    """``value`` without what differs between two records made alike."""
    if isinstance(value, dict):
        return {k: alike(v) for k, v in value.items() if k not in OWN}
    if isinstance(value, list):
        return [alike(v) for v in value]
    return value


@pytest.mark.parametrize("kind", sorted(ZERO_VALUED_CREATES))
def test_optional_fields_sent_empty_are_absent(any_api: Api, kind: str) -> None:
    """A create with the zero values answers the record a create without them makes."""
    path, required, empty = ZERO_VALUED_CREATES[kind]
    network_id = any_api.ok("GET", "/networks")[0]["id"]
    records = []
    for number, extra in enumerate((empty, {})):
        body = {**required, **extra}
        if "name" in body:
            body["name"] = f"{body['name']}{number}"
        if kind in ("firewall", "balancer"):
            body["network_id"] = network_id
        created = any_api.ok("POST", path, body)
        record = any_api.ok("GET", f"{path}/{created['id']}")
        records.append(alike(record))
    assert records[0] == records[1]


def test_names_sent_empty_on_update_change_nothing(any_api: Api) -> None:
    reserved = any_api.ok("POST", "/ips", {"name": "front"})
    assert any_api.ok("PUT", f"/ips/{reserved['id']}", {"name": ""})["name"] == "front"


# PUT beside PATCH


def test_object_store_update_by_put(any_api: Api) -> None:
    store = any_api.ok("POST", "/objectstores", {"name": "photos", "max_size_gb": 500})
    updated = any_api.ok("PUT", f"/objectstores/{store['id']}", {"max_size_gb": 1000})
    assert updated["max_size_gb"] == 1000
    assert any_api.ok("GET", f"/objectstores/{store['id']}")["max_size_gb"] == 1000


def test_credential_update_by_put(any_api: Api) -> None:
    credential = any_api.ok("POST", "/objectstore/credentials", {"name": "ci"})
    path = f"/objectstore/credentials/{credential['id']}"
    assert any_api.ok("PUT", path, {"max_size_gb": 7})["max_size_gb"] == 7
    assert any_api.ok("GET", path)["max_size_gb"] == 7


# Other names and spellings


def test_object_store_create_takes_max_size_gb(any_api: Api) -> None:
    store = any_api.ok("POST", "/objectstores", {"name": "photos", "max_size_gb": 250})
    assert store["max_size_gb"] == 250


def test_object_store_create_refuses_size_and_max_size_gb_that_disagree(wsgi_api: Api) -> None:
    body = {"name": "photos", "size": 100, "max_size_gb": 250}
    wsgi_api.error(400, "parameter_max_size_gb_invalid", "POST", "/objectstores", body)
    assert wsgi_api.ok("POST", "/objectstores", {**body, "size": 250})["max_size_gb"] == 250


def test_firewall_create_rules_false_opens_nothing(any_api: Api, network: dict[str, Any]) -> None:
    body = {"name": "closed", "network_id": network["id"], "create_rules": False}
    firewall = any_api.ok("POST", "/firewalls", body)
    assert rules_of(any_api, firewall["id"]) == []
    body = {"name": "open", "network_id": network["id"], "create_rules": True}
    assert len(rules_of(any_api, any_api.ok("POST", "/firewalls", body)["id"])) == 3


@pytest.mark.parametrize(
    ("ports", "start", "end"), [("22", "22", "22"), ("8000-8080", "8000", "8080")]
)
def test_a_rule_given_as_ports_with_an_empty_start_port(
    any_api: Api, firewall_id: str, ports: str, start: str, end: str
) -> None:
    body = {"protocol": "tcp", "ports": ports, "start_port": ""}
    rule = any_api.ok("POST", f"/firewalls/{firewall_id}/rules", body)
    assert (rule["start_port"], rule["end_port"]) == (start, end)
    assert rules_of(any_api, firewall_id)[0]["ports"] == ports


def test_a_rule_update_given_as_ports(wsgi_api: Api, firewall_id: str) -> None:
    path = f"/firewalls/{firewall_id}/rules"
    rule = wsgi_api.ok("POST", path, {"protocol": "tcp", "start_port": "22"})
    wsgi_api.ok("PUT", f"{path}/{rule['id']}", {"ports": "80-90", "start_port": "", "end_port": ""})
    assert rules_of(wsgi_api, firewall_id)[0]["ports"] == "80-90"


@pytest.mark.parametrize("ports", ["x", "22-", "-22", "1-2-3", "0", "22-99999"])
def test_malformed_ports_are_refused(wsgi_api: Api, firewall_id: str, ports: str) -> None:
    body = {"protocol": "tcp", "ports": ports}
    wsgi_api.error(400, "parameter_ports_invalid", "POST", f"/firewalls/{firewall_id}/rules", body)


@pytest.mark.parametrize(("sent", "kept"), [("inbound", "ingress"), ("outbound", "egress")])
def test_directions_spelled_inbound_and_outbound(
    any_api: Api, firewall_id: str, sent: str, kept: str
) -> None:
    body = {"protocol": "tcp", "start_port": "22", "direction": sent}
    assert any_api.ok("POST", f"/firewalls/{firewall_id}/rules", body)["direction"] == kept
    assert rules_of(any_api, firewall_id)[0]["direction"] == kept


def test_a_firewall_create_with_inline_rules_starts_with_them(
    any_api: Api, network: dict[str, Any]
) -> None:
    """The Terraform provider's firewall create: ``create_rules: false`` and inline rules."""
    inline = [
        {"protocol": "tcp", "ports": "22", "start_port": "", "end_port": "", "label": "ssh"},
        {"protocol": "tcp", "start_port": "8000", "end_port": "8080", "direction": "inbound"},
        {"protocol": "udp", "ports": "53", "direction": "egress", "action": "deny", "cidr": None},
    ]
    body = {"name": "web", "network_id": network["id"], "create_rules": False, "rules": inline}
    firewall = any_api.ok("POST", "/firewalls", body)
    rules = rules_of(any_api, firewall["id"])
    assert [(r["protocol"], r["ports"], r["direction"], r["action"]) for r in rules] == [
        ("tcp", "22", "ingress", "allow"),
        ("tcp", "8000-8080", "ingress", "allow"),
        ("udp", "53", "egress", "deny"),
    ]
    assert rules[0]["label"] == "ssh" and rules[2]["cidr"] == ["0.0.0.0/0"]
    assert any_api.ok("GET", f"/firewalls/{firewall['id']}")["rules_count"] == 3


def test_inline_rules_come_beside_the_default_ones(wsgi_api: Api, network: dict[str, Any]) -> None:
    body = {"name": "web", "network_id": network["id"], "rules": [{"protocol": "icmp"}]}
    firewall = wsgi_api.ok("POST", "/firewalls", body)
    assert [r["protocol"] for r in rules_of(wsgi_api, firewall["id"])] == [
        "tcp",
        "udp",
        "icmp",
        "icmp",
    ]


@pytest.mark.parametrize(
    ("rules", "code"),
    [
        ([{"protocol": "tcp", "ports": "0"}], "parameter_ports_invalid"),
        ([{"protocol": "tcp"}], "parameter_start_port_missing"),
        ([{"ports": "22"}], "parameter_protocol_missing"),
        (["tcp"], "parameter_rules_invalid"),
        ({"protocol": "tcp"}, "parameter_rules_invalid"),
    ],
)
def test_a_wrong_inline_rule_refuses_the_whole_firewall(
    wsgi_api: Api, network: dict[str, Any], rules: Any, code: str
) -> None:
    body = {"name": "web", "network_id": network["id"], "create_rules": False, "rules": rules}
    wsgi_api.error(400, code, "POST", "/firewalls", body)
    assert wsgi_api.ok("GET", "/firewalls") == []


def test_inline_rules_count_against_the_rule_quota(wsgi_api: Api, network: dict[str, Any]) -> None:
    account = wsgi_api.admin("GET", "/accounts")[0]["id"]
    wsgi_api.admin("PUT", f"/accounts/{account}/quota", {"security_group_rule_limit": 4})
    rules = [{"protocol": "tcp", "ports": str(port)} for port in (22, 80)]
    body = {"name": "web", "network_id": network["id"], "rules": rules}
    wsgi_api.error(403, "quota_limit_reached", "POST", "/firewalls", body)
    assert wsgi_api.ok("GET", "/firewalls") == []
    wsgi_api.ok("POST", "/firewalls", {**body, "create_rules": False})


# Large pages


@pytest.mark.parametrize("path", ["/ips", "/objectstores", "/objectstore/credentials"])
def test_per_page_above_the_maximum_is_clamped(wsgi_api: Api, path: str) -> None:
    page = wsgi_api.ok("GET", path, query={"per_page": 10000})
    assert (page["page"], page["per_page"], page["pages"]) == (1, 100, 1)


# Balancer backends


def test_a_backend_health_check_port_is_kept_and_answered(
    any_api: Api, network: dict[str, Any]
) -> None:
    backend = {**BACKEND, "health_check_port": 8081}
    body = {"name": "lb", "network_id": network["id"], "backends": [backend]}
    created = any_api.ok("POST", "/loadbalancers", body)
    assert created["backends"] == [backend]
    assert any_api.ok("GET", f"/loadbalancers/{created['id']}")["backends"] == [backend]


def test_a_backend_without_protocol_is_tcp(any_api: Api, network: dict[str, Any]) -> None:
    backend = {"ip": "10.0.1.10", "source_port": 80, "target_port": 8080}
    body = {"name": "lb", "network_id": network["id"], "backends": [backend]}
    created = any_api.ok("POST", "/loadbalancers", body)
    assert created["backends"] == [{**backend, "protocol": "TCP"}]
    changed = {"backends": [{**backend, "protocol": "", "health_check_port": 0}]}
    updated = any_api.ok("PUT", f"/loadbalancers/{created['id']}", changed)
    assert updated["backends"] == [{**backend, "protocol": "TCP"}]


def test_a_backend_health_check_port_must_be_a_port(wsgi_api: Api, network: dict[str, Any]) -> None:
    backend = {**BACKEND, "health_check_port": 70000}
    body = {"name": "lb", "network_id": network["id"], "backends": [backend]}
    reply = wsgi_api.error(400, "parameter_backends_invalid", "POST", "/loadbalancers", body)
    assert "health_check_port" in reply.body["reason"]


# Fields nobody reads


def log_of(api: Api) -> list[dict[str, Any]]:
    return api.admin("GET", "/requests")  # type: ignore[no-any-return]


def test_unknown_body_fields_are_ignored_and_listed(any_api: Api) -> None:
    body = {"label": "app", "colour": "blue", "cidr": "10.5.0.0/24", "empty": ""}
    created = any_api.ok("POST", "/networks", body)
    assert any_api.ok("GET", f"/networks/{created['id']}")["cidr"] != "10.5.0.0/24"
    entry = log_of(any_api)[-2]
    assert entry["method"] == "POST"
    assert entry["ignored"] == {"body": ["cidr", "colour"], "query": []}
    assert log_of(any_api)[-1]["ignored"] == {"body": [], "query": []}


def test_unknown_fields_of_an_inline_rule_are_ignored_and_listed(
    wsgi_api: Api, network: dict[str, Any]
) -> None:
    rules = [{"protocol": "tcp", "ports": "22"}, {"protocol": "icmp", "colour": "red"}]
    body = {"name": "web", "network_id": network["id"], "create_rules": False, "rules": rules}
    wsgi_api.ok("POST", "/firewalls", body)
    assert log_of(wsgi_api)[-1]["ignored"] == {"body": ["rules[1].colour"], "query": []}


def test_body_fields_sent_in_the_query_are_ignored_and_listed(wsgi_api: Api) -> None:
    created = wsgi_api.ok(
        "POST", "/networks", {"label": "app"}, query={"label": "x", "region": "LON1"}
    )
    assert created["label"] == "app"
    assert log_of(wsgi_api)[-1]["ignored"] == {"body": [], "query": ["label"]}


def test_a_body_region_where_the_body_takes_none_is_ignored(wsgi_api: Api) -> None:
    body = {"url": "https://hooks.example.com/a", "region": "NOWHERE"}
    wsgi_api.ok("POST", "/webhooks", body)
    assert log_of(wsgi_api)[-1]["ignored"] == {"body": ["region"], "query": []}


@pytest.fixture
def strict(service: EmulatorApp) -> Api:
    service.strict = True
    return Api(service)


def test_strict_refuses_an_unknown_body_field_naming_it(strict: Api) -> None:
    reply = strict.error(
        400, "parameter_colour_unknown", "POST", "/networks", {"label": "a", "colour": "blue"}
    )
    assert "colour" in reply.body["reason"]
    assert len(strict.ok("GET", "/networks")) == 1


def test_strict_refuses_an_unknown_field_of_an_inline_rule(
    strict: Api, network: dict[str, Any]
) -> None:
    rules = [{"protocol": "icmp", "colour": "red"}]
    body = {"name": "web", "network_id": network["id"], "rules": rules}
    reply = strict.error(400, "parameter_colour_unknown", "POST", "/firewalls", body)
    assert "rules[0].colour" in reply.body["reason"]


def test_strict_refuses_a_body_field_in_the_query(strict: Api) -> None:
    strict.error(
        400, "parameter_label_unknown", "POST", "/networks", {"label": "a"}, query={"label": "a"}
    )


def test_strict_takes_every_shape_of_the_official_clients(
    strict: Api, network: dict[str, Any]
) -> None:
    query = {"region": "LON1"}
    firewall = strict.ok(
        "POST", "/firewalls", {"name": "fw", "network_id": network["id"], "create_rules": False}
    )
    rule = {"protocol": "tcp", "ports": "22", "start_port": "", "direction": "inbound"}
    strict.ok("POST", f"/firewalls/{firewall['id']}/rules", rule, query=query)
    store = strict.ok("POST", "/objectstores", {"name": "s", "max_size_gb": 5}, query=query)
    strict.ok("PUT", f"/objectstores/{store['id']}", {"max_size_gb": 6}, query=query)
    strict.ok("GET", "/objectstores", query={**query, "per_page": 10000})
    strict.ok("GET", "/webhooks", query=query)
    strict.ok("GET", "/regions", query=query)
    strict.ok("GET", "/quota", query=query)


def test_strict_takes_the_fields_the_official_clients_always_send(
    strict: Api, network: dict[str, Any]
) -> None:
    """``firewall_id`` in rule bodies, ``network_id`` on a firewall's rename, ``nameservers_v4``
    on a network's update; each must agree with what it names."""
    query = {"region": "LON1"}
    firewall = strict.ok("POST", "/firewalls", {"name": "fw", "create_rules": False})
    rules = f"/firewalls/{firewall['id']}/rules"
    rule = strict.ok(
        "POST", rules, {"protocol": "tcp", "start_port": "22", "firewall_id": firewall["id"]}
    )
    strict.ok("PUT", f"{rules}/{rule['id']}", {"label": "ssh", "firewall_id": firewall["id"]})
    strict.error(
        400,
        "parameter_firewall_id_invalid",
        "POST",
        rules,
        {"protocol": "tcp", "start_port": "23", "firewall_id": "another"},
    )
    default = next(n for n in strict.ok("GET", "/networks") if n["default"])
    renamed = {"name": "fw2", "network_id": default["id"]}
    strict.ok("PUT", f"/firewalls/{firewall['id']}", renamed, query=query)
    assert strict.ok("GET", f"/firewalls/{firewall['id']}")["name"] == "fw2"
    moved = {"name": "fw3", "network_id": network["id"]}
    strict.error(400, "parameter_network_id_invalid", "PUT", f"/firewalls/{firewall['id']}", moved)
    update = {"label": "app", "nameservers_v4": "9.9.9.9,1.1.1.1"}
    strict.ok("PUT", f"/networks/{network['id']}", update, query=query)
    assert strict.ok("GET", f"/networks/{network['id']}")["nameservers_v4"] == [
        "9.9.9.9",
        "1.1.1.1",
    ]


def test_balancer_settings_the_official_update_sends_apply_in_place(
    strict: Api, network: dict[str, Any]
) -> None:
    body = {"name": "lb", "network_id": network["id"], "backends": [BACKEND]}
    created = strict.ok("POST", "/loadbalancers", body)
    update = {
        "max_concurrent_requests": 200,
        "session_affinity_config_timeout": 30,
        "options": {"server_timeout": "60s", "client_timeout": 0},
        "firewall_rule": "80,443",
    }
    updated = strict.ok("PUT", f"/loadbalancers/{created['id']}", update)
    assert (updated["max_concurrent_requests"], updated["session_affinity_config_timeout"]) == (
        200,
        30,
    )
    assert updated["options"] == {"server_timeout": "60s"}
    assert updated["firewall_rule"] == "80,443" and updated["id"] == created["id"]
    strict.error(
        400,
        "parameter_options_invalid",
        "PUT",
        f"/loadbalancers/{created['id']}",
        {"options": {"server_timeout": -1}},
    )


def test_an_object_store_answers_both_size_names_and_its_usage(wsgi_api: Api) -> None:
    store = wsgi_api.ok("POST", "/objectstores", {"name": "s", "max_size_gb": 5})
    assert store["max_size"] == store["max_size_gb"] == 5
    stats = wsgi_api.ok("GET", f"/objectstores/{store['id']}/stats")
    assert stats == {"size_kb_utilised": 0, "max_size_kb": 5 * 1024**2, "num_objects": 0}
    wsgi_api.error(404, "database_objectstore_not_found", "GET", "/objectstores/nope/stats")


@pytest.mark.parametrize("name", sorted(BODIES))
def test_the_document_shows_every_field_a_body_takes(name: str) -> None:
    """Each body's fields and aliases (the names the parameter layer keeps) are documented."""
    accepted = BODIES[name]
    schema = accepted.schema()
    assert set(schema["properties"]) == accepted.names
    assert set(schema.get("required", [])) <= set(accepted.fields)


def test_a_strict_emulator_refuses_an_unknown_field_over_http() -> None:
    with Emulator(strict=True) as emulator:
        request = urllib.request.Request(
            f"{emulator.api_url}/v2/networks?region=LON1",
            data=json.dumps({"label": "a", "colour": "blue"}).encode(),
            headers={
                "Authorization": f"bearer {emulator.api_key}",
                "Content-Type": "application/json",
            },
            method="POST",
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
        body = json.loads(refused.value.read())
        assert body["code"] == "parameter_colour_unknown" and "colour" in body["reason"]


@pytest.mark.parametrize(
    "plugin", ["altostratus.testing.pytest_plugin", "altostratus.emulator.pytest_plugin"]
)
def test_the_pytest_plugin_serves_a_strict_emulator_when_its_settings_say_so(
    tmp_path: Path, plugin: str
) -> None:
    """The plugin also loads under its former name, ``altostratus.emulator.pytest_plugin``."""
    (tmp_path / "conftest.py").write_text(
        "import pytest\n"
        f"pytest_plugins = [{plugin!r}]\n\n"
        '@pytest.fixture(scope="session")\n'
        "def altostratus_emulator_settings():\n"
        '    return {"strict": True}\n'
    )
    (tmp_path / "test_wrong_call.py").write_text(
        "import json, urllib.error, urllib.request\n\n"
        "def test_a_wrong_call_is_refused(altostratus_fresh_emulator):\n"
        "    emulator = altostratus_fresh_emulator\n"
        "    request = urllib.request.Request(\n"
        '        emulator.api_url + "/v2/networks",\n'
        '        data=json.dumps({"label": "a", "colour": "blue"}).encode(),\n'
        '        headers={"Authorization": "bearer " + emulator.api_key,\n'
        '                 "Content-Type": "application/json"},\n'
        '        method="POST",\n'
        "    )\n"
        "    try:\n"
        "        urllib.request.urlopen(request, timeout=10)\n"
        "    except urllib.error.HTTPError as refused:\n"
        '        assert json.loads(refused.read())["code"] == "parameter_colour_unknown"\n'
        "    else:\n"
        '        raise AssertionError("the strict emulator took an unknown field")\n'
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr


# Networks deleted with their firewalls, as both official clients expect


def _as_go_client(emulator: Emulator, method: str, path: str, body: Any = None) -> Any:
    """One call as the Go client sends it: ``?region=`` on every call, JSON bodies."""
    status, answer = call(emulator, method, f"/v2{path}?region=LON1", body)
    assert status == 200, (method, path, status, answer)
    return answer


def _firewall_names(emulator: Emulator) -> list[str]:
    return [f["name"] for f in _as_go_client(emulator, "GET", "/firewalls")]


def test_the_bridged_providers_network_flow_deletes_the_network_alone(
    fresh_emulator: Emulator,
) -> None:
    """The bridged provider makes every network's ``<label>-default`` firewall by a second call
    and deletes the network alone: the firewall goes with it."""
    network = _as_go_client(
        fresh_emulator, "POST", "/networks", {"label": "shop-net", "region": "LON1", "cidr_v4": ""}
    )
    firewall = {"name": "shop-net-default", "region": "LON1", "network_id": network["id"]}
    made = _as_go_client(fresh_emulator, "POST", "/firewalls", {**firewall, "create_rules": True})
    assert "shop-net-default" in _firewall_names(fresh_emulator)

    deleted = _as_go_client(fresh_emulator, "DELETE", f"/networks/{network['id']}")

    assert deleted == {"result": "success"}
    assert "shop-net-default" not in _firewall_names(fresh_emulator)
    status, _ = call(fresh_emulator, "GET", f"/v2/firewalls/{made['id']}?region=LON1")
    assert status == 404
    networks = _as_go_client(fresh_emulator, "GET", "/networks")
    assert network["id"] not in {n["id"] for n in networks}


def test_the_clis_network_create_with_a_default_firewall_then_remove(
    fresh_emulator: Emulator,
) -> None:
    """``network create --create-default-firewall`` (a network, then a firewall on it), then
    ``network remove`` (a lookup by list, then the delete)."""
    network = _as_go_client(fresh_emulator, "POST", "/networks", {"label": "cli-net"})
    firewall = {"name": "cli-net", "region": "LON1", "network_id": network["id"]}
    _as_go_client(fresh_emulator, "POST", "/firewalls", firewall)
    listed = _as_go_client(fresh_emulator, "GET", "/networks")
    found = [n for n in listed if n["label"] == "cli-net"]

    assert _as_go_client(fresh_emulator, "DELETE", f"/networks/{found[0]['id']}") == {
        "result": "success"
    }
    assert "cli-net" not in _firewall_names(fresh_emulator)


def test_a_network_a_balancer_uses_is_still_refused_over_http(fresh_emulator: Emulator) -> None:
    network = _as_go_client(fresh_emulator, "POST", "/networks", {"label": "lb-net"})
    firewall = {"name": "lb-net-default", "network_id": network["id"]}
    _as_go_client(fresh_emulator, "POST", "/firewalls", firewall)
    balancer = {"name": "web", "network_id": network["id"], "backends": [BACKEND]}
    _as_go_client(fresh_emulator, "POST", "/loadbalancers", balancer)
    status, answer = call(fresh_emulator, "DELETE", f"/v2/networks/{network['id']}?region=LON1")
    assert (status, answer["code"]) == (409, "database_network_inuse")
    assert "load balancer 'web'" in answer["reason"]
    assert "lb-net-default" in _firewall_names(fresh_emulator)
