"""/v2/vpc/networks and /v2/networks."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.call import SUCCESS, Call, RouteTable
from altostratus.emulator.params import parse_ipv4, parse_private_cidr

ROUTES = RouteTable(networking=True)


@ROUTES.add("GET", "/networks", "List networks", "[Network]")
def list_networks(call: Call) -> list[dict[str, Any]]:
    networks = call.state.networks
    return [networks.describe(n) for n in networks.all(call.account_id, call.region)]


@ROUTES.add("GET", "/networks/{id}", "Retrieve a network", "Network")
def get_network(call: Call, network_id: str) -> dict[str, Any]:
    networks = call.state.networks
    return networks.describe(networks.get(call.account_id, call.region, network_id))


@ROUTES.add("POST", "/networks", "Create a network", "NetworkCreated", "NetworkCreate")
def create_network(call: Call) -> dict[str, Any]:
    fields = {
        "label": call.params.required_text("label"),
        "ipv4_enabled": call.params.boolean("ipv4_enabled"),
        "cidr_v4": call.params.parsed("cidr_v4", parse_private_cidr),
        "nameservers_v4": call.params.text_list(
            "nameservers_v4", parse_ipv4, what="comma-separated IPv4 addresses"
        ),
    }
    network = call.state.networks.create(call.account_id, call.region, call.effects, fields)
    return {"id": network.id, "result": "success", "name": network.name, "label": network.label}


@ROUTES.add("PUT", "/networks/{id}", "Relabel a network", "NetworkUpdated", "NetworkUpdate")
def update_network(call: Call, network_id: str) -> dict[str, Any]:
    label = call.params.required_text("label")
    network = call.state.networks.get(call.account_id, call.region, network_id)
    call.state.networks.update(network, call.effects, {"label": label})
    return {"id": network.id, "result": "success", "label": network.label}


@ROUTES.add("DELETE", "/networks/{id}", "Delete a network", "Result")
def delete_network(call: Call, network_id: str) -> dict[str, Any]:
    network = call.state.networks.get(call.account_id, call.region, network_id)
    call.state.networks.delete(network, call.effects)
    return dict(SUCCESS)
