"""/v2/vpc/loadbalancers and /v2/loadbalancers."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import LoadBalancerCreate, LoadBalancerUpdate
from altostratus.emulator.routes.call import SUCCESS, Call, RouteTable, without
from altostratus.emulator.state.base import Encoded
from altostratus.emulator.state.load_balancers import LoadBalancer

ROUTES = RouteTable(networking=True)


def _balancer(call: Call, balancer_id: str) -> LoadBalancer:
    return call.state.load_balancers.get(call.account_id, call.region, balancer_id)


@ROUTES.add("GET", "/loadbalancers", "List load balancers", "[LoadBalancer]")
def list_balancers(call: Call) -> Encoded:
    balancers = call.state.load_balancers
    return balancers.answers(balancers.all(call.account_id, call.region))


@ROUTES.add("GET", "/loadbalancers/{id}", "Retrieve a load balancer", "LoadBalancer")
def get_balancer(call: Call, balancer_id: str) -> Encoded:
    return call.state.load_balancers.answer(_balancer(call, balancer_id))


@ROUTES.add(
    "POST", "/loadbalancers", "Create a load balancer", "LoadBalancerCreated", LoadBalancerCreate
)
def create_balancer(call: Call, fields: LoadBalancerCreate) -> dict[str, Any]:
    balancers = call.state.load_balancers
    balancer = balancers.create(call.account_id, call.region, call.effects, fields)
    answer = without(balancers.describe(balancer), "service_name")
    return answer | {"public_ip": "", "private_ip": "", "state": ""}


@ROUTES.add(
    "PUT", "/loadbalancers/{id}", "Update a load balancer", "LoadBalancer", LoadBalancerUpdate
)
def update_balancer(call: Call, balancer_id: str, changes: LoadBalancerUpdate) -> dict[str, Any]:
    balancer = _balancer(call, balancer_id)
    call.state.load_balancers.update(balancer, call.effects, changes)
    return call.state.load_balancers.describe(balancer)


@ROUTES.add("DELETE", "/loadbalancers/{id}", "Delete a load balancer", "Result")
def delete_balancer(call: Call, balancer_id: str) -> dict[str, Any]:
    call.state.load_balancers.delete(_balancer(call, balancer_id), call.effects)
    return dict(SUCCESS)
