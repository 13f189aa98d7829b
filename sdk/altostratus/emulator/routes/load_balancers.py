"""/v2/vpc/loadbalancers and /v2/loadbalancers."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.call import SUCCESS, Call, RouteTable, without
from altostratus.emulator.errors import invalid, missing
from altostratus.emulator.params import parse_integer, parse_ipv4, port_number
from altostratus.emulator.state.load_balancers import (
    AFFINITIES,
    ALGORITHMS,
    BACKEND_FIELDS,
    BACKEND_PROTOCOLS,
    PROXY_PROTOCOLS,
    TRAFFIC_POLICIES,
    LoadBalancer,
)

ROUTES = RouteTable(networking=True)

_REQUIRED = {"ip", "source_port", "target_port"}
_ALLOWED = {*BACKEND_FIELDS, "health_check_port"}

_CHOICES = {
    "algorithm": ALGORITHMS,
    "external_traffic_policy": TRAFFIC_POLICIES,
    "session_affinity": AFFINITIES,
}


def _balancer(call: Call, balancer_id: str) -> LoadBalancer:
    return call.state.load_balancers.get(call.account_id, call.region, balancer_id)


def _backends(value: Any) -> list[dict[str, Any]]:
    """Backends as written: each ``ip`` and two ports, ``protocol`` (TCP or UDP; TCP when left
    out or empty) and, optionally, ``health_check_port`` (kept and answered; 0 or empty is none,
    the official Go client's unset value); no other field."""
    if not isinstance(value, list):
        raise invalid("backends", "The parameter backends must be an array of backend objects")
    backends = []
    for item in value:
        if not isinstance(item, dict) or not _REQUIRED <= set(item) <= _ALLOWED:
            raise invalid(
                "backends",
                "Each backend holds ip, source_port and target_port, and may hold protocol and"
                " health_check_port",
            )
        protocol = item.get("protocol") or "TCP"
        if not isinstance(protocol, str) or protocol.upper() not in BACKEND_PROTOCOLS:
            raise invalid("backends", "A backend's protocol must be TCP or UDP")
        if not isinstance(item["ip"], str):
            raise invalid("backends", "A backend's ip must be an IPv4 address")
        backend: dict[str, Any] = {
            "ip": parse_ipv4("backends", item["ip"]),
            "protocol": protocol.upper(),
        }
        for name in ("source_port", "target_port", "health_check_port"):
            sent = item.get(name)
            if name == "health_check_port" and (sent in (None, "") or parse_integer(sent) == 0):
                continue
            port = port_number(sent)
            if port is None:
                raise invalid("backends", f"A backend's {name} must be a port from 1 to 65535")
            backend[name] = port
        backends.append(backend)
    return backends


def _settings(call: Call, *, creating: bool) -> dict[str, Any]:
    """The balancer settings present in the body, validated."""
    settings: dict[str, Any] = {}
    for name, allowed in _CHOICES.items():
        value = call.params.choice(name, allowed)
        if value is not None:
            settings[name] = value
    proxy = call.params.text("enable_proxy_protocol")
    if proxy is not None:
        settings["enable_proxy_protocol"] = (
            "" if proxy == "" else call.params.choice("enable_proxy_protocol", PROXY_PROTOCOLS)
        )
    if "backends" in call.params:
        settings["backends"] = _backends(call.params.structured("backends"))
    elif creating:
        raise missing("backends")
    if creating:
        numbers = (("session_affinity_config_timeout", 0), ("max_concurrent_requests", 1))
        for name, minimum in numbers:
            number = call.params.integer(name, minimum=minimum)
            if number is not None:
                settings[name] = number
        firewall_id = call.params.text("firewall_id")
        if firewall_id:
            settings["firewall_id"] = firewall_id
    return settings


@ROUTES.add("GET", "/loadbalancers", "List load balancers", "[LoadBalancer]")
def list_balancers(call: Call) -> list[dict[str, Any]]:
    balancers = call.state.load_balancers
    return [balancers.describe(b) for b in balancers.all(call.account_id, call.region)]


@ROUTES.add("GET", "/loadbalancers/{id}", "Retrieve a load balancer", "LoadBalancer")
def get_balancer(call: Call, balancer_id: str) -> dict[str, Any]:
    return call.state.load_balancers.describe(_balancer(call, balancer_id))


@ROUTES.add(
    "POST", "/loadbalancers", "Create a load balancer", "LoadBalancerCreated", "LoadBalancerCreate"
)
def create_balancer(call: Call) -> dict[str, Any]:
    fields = {
        "name": call.params.required_text("name"),
        "network_id": call.params.required_text("network_id"),
    }
    fields |= _settings(call, creating=True)
    balancers = call.state.load_balancers
    balancer = balancers.create(call.account_id, call.region, call.effects, fields)
    answer = without(balancers.describe(balancer), "service_name")
    return answer | {"public_ip": "", "private_ip": "", "state": ""}


@ROUTES.add(
    "PUT", "/loadbalancers/{id}", "Update a load balancer", "LoadBalancer", "LoadBalancerUpdate"
)
def update_balancer(call: Call, balancer_id: str) -> dict[str, Any]:
    changes = _settings(call, creating=False)
    name = call.params.text("name", allow_empty=False)
    if name is not None:
        changes["name"] = name
    balancer = _balancer(call, balancer_id)
    call.state.load_balancers.update(balancer, call.effects, changes)
    return call.state.load_balancers.describe(balancer)


@ROUTES.add("DELETE", "/loadbalancers/{id}", "Delete a load balancer", "Result")
def delete_balancer(call: Call, balancer_id: str) -> dict[str, Any]:
    call.state.load_balancers.delete(_balancer(call, balancer_id), call.effects)
    return dict(SUCCESS)
