"""/v2/vpc/firewalls and /v2/firewalls, with their rules."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.call import SUCCESS, Call, Route, without
from altostratus.emulator.errors import invalid
from altostratus.emulator.state.addresses import parse_cidr
from altostratus.emulator.state.base import new_id
from altostratus.emulator.state.firewalls import (
    ACTIONS,
    DIRECTIONS,
    PROTOCOLS,
    Firewall,
    Rule,
    port_range,
)


def _firewall(call: Call, firewall_id: str) -> Firewall:
    return call.state.firewalls.get(call.account_id, call.region, firewall_id)


def list_firewalls(call: Call) -> list[dict[str, Any]]:
    firewalls = call.state.firewalls
    return [firewalls.describe(f) for f in firewalls.all(call.account_id, call.region)]


def get_firewall(call: Call, firewall_id: str) -> dict[str, Any]:
    return call.state.firewalls.describe(_firewall(call, firewall_id))


def create_firewall(call: Call) -> dict[str, Any]:
    name = call.params.required_text("name")
    network_id = call.params.required_text("network_id")
    default_rules = call.params.boolean("create_default_rules")
    firewall = call.state.firewalls.create(
        call.account_id,
        call.region,
        call.effects,
        name=name,
        network_id=network_id,
        default_rules=True if default_rules is None else default_rules,
    )
    return {"id": firewall.id, "result": "success", "name": firewall.name}


def update_firewall(call: Call, firewall_id: str) -> dict[str, Any]:
    name = call.params.text("name", allow_empty=False)
    firewall = _firewall(call, firewall_id)
    call.state.firewalls.rename(firewall, call.effects, name)
    return {"id": firewall.id, "result": "success", "name": firewall.name}


def delete_firewall(call: Call, firewall_id: str) -> dict[str, Any]:
    call.state.firewalls.delete(_firewall(call, firewall_id), call.effects)
    return dict(SUCCESS)


def _cidr(call: Call) -> list[str] | None:
    """One CIDR text, an array of them, or (in forms) a JSON array or comma-separated text."""
    value = call.params.raw("cidr")
    if value is None:
        return None
    if isinstance(value, str) and value.strip().startswith("["):
        value = call.params.structured("cidr")
    if isinstance(value, str):
        value = [part for part in (p.strip() for p in value.split(",")) if part]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise invalid("cidr", "The parameter cidr must be a CIDR block or an array of them")
    return [parse_cidr("cidr", v) for v in value]


def _rule_fields(call: Call) -> dict[str, Any]:
    """The rule fields present in the body, each validated (ports are checked with the protocol)."""
    fields: dict[str, Any] = {}
    for name, allowed in (("protocol", PROTOCOLS), ("direction", DIRECTIONS)):
        value = call.params.choice(name, allowed)
        if value is not None:
            fields[name] = value
    for name in ("start_port", "end_port"):
        if name in call.params:
            fields[name] = call.params.raw(name)
    cidr = _cidr(call)
    if cidr is not None:
        fields["cidr"] = cidr
    label = call.params.text("label")
    if label is not None:
        fields["label"] = label
    return fields


def list_rules(call: Call, firewall_id: str) -> list[dict[str, Any]]:
    return [r.describe() for r in _firewall(call, firewall_id).rules]


def create_rule(call: Call, firewall_id: str) -> dict[str, Any]:
    call.params.choice("protocol", PROTOCOLS, required=True)
    fields = _rule_fields(call)
    action = call.params.choice("action", ACTIONS) or "allow"
    firewall = _firewall(call, firewall_id)
    start, end = port_range(fields["protocol"], fields.get("start_port"), fields.get("end_port"))
    rule = Rule(
        id=new_id(),
        firewall_id=firewall.id,
        protocol=fields["protocol"],
        start_port=start,
        end_port=end,
        cidr=fields.get("cidr", ["0.0.0.0/0"]),
        direction=fields.get("direction", "ingress"),
        label=fields.get("label", ""),
        action=action,
    )
    call.state.firewalls.add_rule(firewall, call.effects, rule)
    return without(rule.describe(), "ports")


def update_rule(call: Call, firewall_id: str, rule_id: str) -> dict[str, Any]:
    fields = _rule_fields(call)
    firewall = _firewall(call, firewall_id)
    rule = firewall.rule(rule_id)
    action = call.params.choice("action", ACTIONS)
    if action is not None and action != rule.action:
        raise invalid("action", "A rule's action cannot be changed; replace the rule instead")
    call.state.firewalls.update_rule(firewall, call.effects, rule, fields)
    return {"id": rule.id, "result": "success"}


def delete_rule(call: Call, firewall_id: str, rule_id: str) -> dict[str, Any]:
    firewall = _firewall(call, firewall_id)
    call.state.firewalls.remove_rule(firewall, call.effects, firewall.rule(rule_id))
    return {"id": firewall.id, "result": "success", "name": firewall.name}


_RULE = "/firewalls/<firewall_id>/rules/<rule_id>"
ROUTES = [
    Route("GET", "/firewalls", list_firewalls, networking=True),
    Route("POST", "/firewalls", create_firewall, networking=True),
    Route("GET", "/firewalls/<firewall_id>", get_firewall, networking=True),
    Route("PUT", "/firewalls/<firewall_id>", update_firewall, networking=True),
    Route("DELETE", "/firewalls/<firewall_id>", delete_firewall, networking=True),
    Route("GET", "/firewalls/<firewall_id>/rules", list_rules, networking=True),
    Route("POST", "/firewalls/<firewall_id>/rules", create_rule, networking=True),
    Route("PUT", _RULE, update_rule, networking=True),
    Route("DELETE", _RULE, delete_rule, networking=True),
]
