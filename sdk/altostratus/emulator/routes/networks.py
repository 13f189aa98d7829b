"""/v2/vpc/networks and /v2/networks."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.call import SUCCESS, Call, Route
from altostratus.emulator.errors import invalid
from altostratus.emulator.state.addresses import parse_ipv4


def list_networks(call: Call) -> list[dict[str, Any]]:
    return [n.describe() for n in call.state.networks.all(call.account_id, call.region)]


def get_network(call: Call, network_id: str) -> dict[str, Any]:
    return call.state.networks.get(call.account_id, call.region, network_id).describe()


def _nameservers(call: Call) -> list[str]:
    value = call.params.raw("nameservers_v4")
    if value is None:
        return []
    if isinstance(value, str) and value.strip().startswith("["):
        value = call.params.structured("nameservers_v4")
    if isinstance(value, str):
        items = [v for v in (part.strip() for part in value.split(",")) if v]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        items = value
    else:
        raise invalid("nameservers_v4", "nameservers_v4 must be comma-separated IPv4 addresses")
    return [parse_ipv4("nameservers_v4", item) for item in items]


def create_network(call: Call) -> dict[str, Any]:
    label = call.params.required_text("label")
    ipv4_enabled = call.params.boolean("ipv4_enabled")
    network = call.state.networks.create(
        call.account_id,
        call.region,
        call.effects,
        label=label,
        ipv4_enabled=True if ipv4_enabled is None else ipv4_enabled,
        cidr_v4=call.params.text("cidr_v4"),
        nameservers=_nameservers(call),
    )
    return {"id": network.id, "result": "success", "name": network.name, "label": network.label}


def update_network(call: Call, network_id: str) -> dict[str, Any]:
    label = call.params.required_text("label")
    network = call.state.networks.get(call.account_id, call.region, network_id)
    call.state.networks.update(network, call.effects, label=label)
    return {"id": network.id, "result": "success", "label": network.label}


def delete_network(call: Call, network_id: str) -> dict[str, Any]:
    network = call.state.networks.get(call.account_id, call.region, network_id)
    call.state.networks.delete(network, call.effects)
    return dict(SUCCESS)


ROUTES = [
    Route("GET", "/networks", list_networks, networking=True),
    Route("POST", "/networks", create_network, networking=True),
    Route("GET", "/networks/<network_id>", get_network, networking=True),
    Route("PUT", "/networks/<network_id>", update_network, networking=True),
    Route("DELETE", "/networks/<network_id>", delete_network, networking=True),
]
