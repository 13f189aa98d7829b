"""/v2/vpc/ips and /v2/ips."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.errors import missing
from altostratus.emulator.reading.bodies import (
    ReservedIpAction,
    ReservedIpCreate,
    ReservedIpUpdate,
)
from altostratus.emulator.reading.params import page_params
from altostratus.emulator.routes.call import SUCCESS, Call, RouteTable, pick
from altostratus.emulator.state.base import Encoded
from altostratus.emulator.state.reserved_ips import ReservedIp

ROUTES = RouteTable(networking=True)


def _reserved(call: Call, reserved_id: str) -> ReservedIp:
    return call.state.reserved_ips.get(call.account_id, call.region, reserved_id)


@ROUTES.add("GET", "/ips", "List reserved IPs", "ReservedIpPage", paged=True)
def list_ips(call: Call) -> Encoded:
    page, per_page = page_params(call.query)
    return call.state.reserved_ips.page(call.account_id, call.region, page, per_page)


@ROUTES.add("GET", "/ips/{id}", "Retrieve a reserved IP", "ReservedIp")
def get_ip(call: Call, reserved_id: str) -> Encoded:
    return call.state.reserved_ips.answer(_reserved(call, reserved_id))


@ROUTES.add("POST", "/ips", "Reserve an IP", "ReservedIpSaved", ReservedIpCreate)
def create_ip(call: Call, fields: ReservedIpCreate) -> dict[str, Any]:
    reserved = call.state.reserved_ips.create(call.account_id, call.region, call.effects, fields)
    return {"id": reserved.id, "name": reserved.name}


@ROUTES.add("PUT", "/ips/{id}", "Rename a reserved IP", "ReservedIpSaved", ReservedIpUpdate)
def update_ip(call: Call, reserved_id: str, changes: ReservedIpUpdate) -> dict[str, Any]:
    reserved = _reserved(call, reserved_id)
    call.state.reserved_ips.update(reserved, call.effects, changes)
    return pick(call.state.reserved_ips.describe(reserved), "id", "name")


@ROUTES.add("DELETE", "/ips/{id}", "Release a reserved IP", "Result")
def delete_ip(call: Call, reserved_id: str) -> dict[str, Any]:
    call.state.reserved_ips.delete(_reserved(call, reserved_id), call.effects)
    return dict(SUCCESS)


@ROUTES.add("POST", "/ips/{id}/actions", "Assign or unassign", "Result", ReservedIpAction)
def act_on_ip(call: Call, reserved_id: str, fields: ReservedIpAction) -> dict[str, Any]:
    """``assign`` (to the load balancer ``assign_to_id``; an ``assign_to_type`` of
    ``instance`` is never found, the emulator serving no instances) or ``unassign``
    (idempotent)."""
    if fields.action == "assign" and fields.assign_to_id is None:
        raise missing("assign_to_id")
    reserved = _reserved(call, reserved_id)
    if fields.assign_to_id is not None and fields.action == "assign":
        ips = call.state.reserved_ips
        ips.assign(reserved, call.effects, fields.assign_to_id, fields.assign_to_type)
    else:
        call.state.reserved_ips.unassign(reserved, call.effects)
    return dict(SUCCESS)
