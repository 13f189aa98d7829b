"""/v2/vpc/networks and /v2/networks."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import NetworkCreate, NetworkUpdate
from altostratus.emulator.routes.call import SUCCESS, Call, RouteTable
from altostratus.emulator.state.base import Encoded

ROUTES = RouteTable(networking=True)


@ROUTES.add("GET", "/networks", "List networks", "[Network]")
def list_networks(call: Call) -> Encoded:
    networks = call.state.networks
    return networks.answers(networks.all(call.account_id, call.region))


@ROUTES.add("GET", "/networks/{id}", "Retrieve a network", "Network")
def get_network(call: Call, network_id: str) -> Encoded:
    networks = call.state.networks
    return networks.answer(networks.get(call.account_id, call.region, network_id))


@ROUTES.add("POST", "/networks", "Create a network", "NetworkCreated", NetworkCreate)
def create_network(call: Call, fields: NetworkCreate) -> dict[str, Any]:
    network = call.state.networks.create(call.account_id, call.region, call.effects, fields)
    return {"id": network.id, "result": "success", "name": network.name, "label": network.label}


@ROUTES.add("PUT", "/networks/{id}", "Relabel a network", "NetworkUpdated", NetworkUpdate)
def update_network(call: Call, network_id: str, changes: NetworkUpdate) -> dict[str, Any]:
    network = call.state.networks.get(call.account_id, call.region, network_id)
    call.state.networks.update(network, call.effects, changes)
    return {"id": network.id, "result": "success", "label": network.label}


@ROUTES.add("DELETE", "/networks/{id}", "Delete a network", "Result")
def delete_network(call: Call, network_id: str) -> dict[str, Any]:
    network = call.state.networks.get(call.account_id, call.region, network_id)
    call.state.networks.delete(network, call.effects)
    return dict(SUCCESS)
