"""/v2/vpc/firewalls and /v2/firewalls, with their rules."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.bodies import INLINE_RULE
from altostratus.emulator.call import SUCCESS, Call, RouteTable, without
from altostratus.emulator.errors import invalid
from altostratus.emulator.params import Params, parse_cidr
from altostratus.emulator.state.firewalls import (
    ACTIONS,
    DIRECTIONS,
    PROTOCOLS,
    Firewall,
    split_ports,
)

ROUTES = RouteTable(networking=True)


def _firewall(call: Call, firewall_id: str) -> Firewall:
    return call.state.firewalls.get(call.account_id, call.region, firewall_id)


@ROUTES.add("GET", "/firewalls", "List firewalls", "[Firewall]")
def list_firewalls(call: Call) -> list[dict[str, Any]]:
    firewalls = call.state.firewalls
    return [firewalls.describe(f) for f in firewalls.all(call.account_id, call.region)]


@ROUTES.add("GET", "/firewalls/{id}", "Retrieve a firewall", "Firewall")
def get_firewall(call: Call, firewall_id: str) -> dict[str, Any]:
    return call.state.firewalls.describe(_firewall(call, firewall_id))


@ROUTES.add("POST", "/firewalls", "Create a firewall", "FirewallSaved", "FirewallCreate")
def create_firewall(call: Call) -> dict[str, Any]:
    fields = {
        "name": call.params.required_text("name"),
        "network_id": call.params.required_text("network_id"),
        "create_default_rules": call.params.boolean("create_default_rules"),
        "rules": _inline_rules(call.params),
    }
    firewall = call.state.firewalls.create(call.account_id, call.region, call.effects, fields)
    return {"id": firewall.id, "result": "success", "name": firewall.name}


@ROUTES.add("PUT", "/firewalls/{id}", "Rename a firewall", "FirewallSaved", "FirewallUpdate")
def update_firewall(call: Call, firewall_id: str) -> dict[str, Any]:
    name = call.params.text("name", allow_empty=False)
    firewall = _firewall(call, firewall_id)
    call.state.firewalls.update(firewall, call.effects, {} if name is None else {"name": name})
    return {"id": firewall.id, "result": "success", "name": firewall.name}


@ROUTES.add("DELETE", "/firewalls/{id}", "Delete a firewall", "Result")
def delete_firewall(call: Call, firewall_id: str) -> dict[str, Any]:
    call.state.firewalls.delete(_firewall(call, firewall_id), call.effects)
    return dict(SUCCESS)


def _inline_rules(params: Params) -> list[dict[str, Any]]:
    """The rules given on a firewall's create, each read as a rule's own create reads it."""
    if "rules" not in params:
        return []
    items = params.structured("rules")
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise invalid("rules", "The parameter rules must be an array of rule objects")
    rules = []
    for item in items:
        rule = INLINE_RULE.read(item)
        rule.choice("protocol", PROTOCOLS, required=True)
        rules.append(_rule_fields(rule))
    return rules


def _rule_fields(params: Params) -> dict[str, Any]:
    """The rule fields present in the body, each validated (ports are checked with the protocol);
    ``ports`` stands for the ports when ``start_port`` is absent."""
    fields: dict[str, Any] = {}
    for name, allowed in (("protocol", PROTOCOLS), ("direction", DIRECTIONS)):
        value = params.choice(name, allowed)
        if value is not None:
            fields[name] = value
    for name in ("start_port", "end_port"):
        if name in params:
            fields[name] = params.raw(name)
    ports = params.text("ports")
    if ports is not None and "start_port" not in fields:
        fields["start_port"], end = split_ports(ports)
        fields.setdefault("end_port", end)
    cidr = params.text_list(
        "cidr", parse_cidr, what="a CIDR block or an array of them", allow_empty=False
    )
    if cidr is not None:
        fields["cidr"] = cidr
    label = params.text("label")
    if label is not None:
        fields["label"] = label
    action = params.choice("action", ACTIONS)
    if action is not None:
        fields["action"] = action
    return fields


@ROUTES.add("GET", "/firewalls/{firewall_id}/rules", "List rules", "[Rule]")
def list_rules(call: Call, firewall_id: str) -> list[dict[str, Any]]:
    return [r.describe() for r in _firewall(call, firewall_id).rules]


@ROUTES.add("POST", "/firewalls/{firewall_id}/rules", "Add a rule", "RuleCreated", "RuleCreate")
def create_rule(call: Call, firewall_id: str) -> dict[str, Any]:
    call.params.choice("protocol", PROTOCOLS, required=True)
    fields = _rule_fields(call.params)
    firewall = _firewall(call, firewall_id)
    rule = call.state.firewalls.create_rule(firewall, call.effects, fields)
    return without(rule.describe(), "ports")


@ROUTES.add(
    "PUT",
    "/firewalls/{firewall_id}/rules/{rule_id}",
    "Change a rule (not its action)",
    "RuleUpdated",
    "RuleUpdate",
)
def update_rule(call: Call, firewall_id: str, rule_id: str) -> dict[str, Any]:
    fields = _rule_fields(call.params)
    rule = _firewall(call, firewall_id).rule(rule_id)
    call.state.firewalls.update_rule(rule, call.effects, fields)
    return {"id": rule.id, "result": "success"}


@ROUTES.add("DELETE", "/firewalls/{firewall_id}/rules/{rule_id}", "Remove a rule", "RuleDeleted")
def delete_rule(call: Call, firewall_id: str, rule_id: str) -> dict[str, Any]:
    firewall = _firewall(call, firewall_id)
    call.state.firewalls.delete_rule(firewall.rule(rule_id), call.effects)
    return {"id": firewall.id, "result": "success", "name": firewall.name}
