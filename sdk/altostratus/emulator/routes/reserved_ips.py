"""/v2/vpc/ips and /v2/ips."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.call import SUCCESS, Call, Route, pick
from altostratus.emulator.errors import missing
from altostratus.emulator.params import page_params
from altostratus.emulator.state.reserved_ips import ReservedIp


def _reserved(call: Call, reserved_id: str) -> ReservedIp:
    return call.state.reserved_ips.get(call.account_id, call.region, reserved_id)


def list_ips(call: Call) -> dict[str, Any]:
    page, per_page = page_params(call.query)
    return call.state.reserved_ips.page(
        call.account_id,
        call.region,
        page,
        per_page,
        lambda r: {"id": r.id, "name": r.name, "ip": r.ip},
    )


def get_ip(call: Call, reserved_id: str) -> dict[str, Any]:
    return call.state.reserved_ips.describe(_reserved(call, reserved_id))


def create_ip(call: Call) -> dict[str, Any]:
    fields = {"name": call.params.required_text("name")}
    reserved = call.state.reserved_ips.create(call.account_id, call.region, call.effects, fields)
    return {"id": reserved.id, "name": reserved.name}


def update_ip(call: Call, reserved_id: str) -> dict[str, Any]:
    name = call.params.text("name", allow_empty=False)
    reserved = _reserved(call, reserved_id)
    changes = {} if name is None else {"name": name}
    call.state.reserved_ips.update(reserved, call.effects, changes)
    return pick(call.state.reserved_ips.describe(reserved), "id", "name")


def delete_ip(call: Call, reserved_id: str) -> dict[str, Any]:
    call.state.reserved_ips.delete(_reserved(call, reserved_id), call.effects)
    return dict(SUCCESS)


def act_on_ip(call: Call, reserved_id: str) -> dict[str, Any]:
    """``assign`` (to the load balancer ``assign_to_id``) or ``unassign`` (idempotent)."""
    action = call.params.choice("action", ("assign", "unassign"), required=True)
    target = call.params.text("assign_to_id", allow_empty=False)
    if action == "assign" and target is None:
        raise missing("assign_to_id")
    reserved = _reserved(call, reserved_id)
    if action == "assign":
        assert target is not None
        call.state.reserved_ips.assign(reserved, call.effects, target)
    else:
        call.state.reserved_ips.unassign(reserved, call.effects)
    return dict(SUCCESS)


_ONE = "/ips/{id}"
ROUTES = [
    Route("GET", "/ips", list_ips, "List reserved IPs", "ReservedIpPage", None, True, paged=True),
    Route("POST", "/ips", create_ip, "Reserve an IP", "ReservedIpSaved", "ReservedIpCreate", True),
    Route("GET", _ONE, get_ip, "Retrieve a reserved IP", "ReservedIp", networking=True),
    Route(
        "PUT", _ONE, update_ip, "Rename a reserved IP", "ReservedIpSaved", "ReservedIpUpdate", True
    ),
    Route("DELETE", _ONE, delete_ip, "Release a reserved IP", "Result", networking=True),
    Route(
        "POST",
        "/ips/{id}/actions",
        act_on_ip,
        "Assign or unassign",
        "Result",
        "ReservedIpAction",
        networking=True,
    ),
]
