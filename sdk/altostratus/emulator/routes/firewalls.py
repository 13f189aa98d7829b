"""/v2/vpc/firewalls and /v2/firewalls, with their rules."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import (
    FirewallCreate,
    FirewallUpdate,
    RuleCreate,
    RuleUpdate,
)
from altostratus.emulator.routes.call import SUCCESS, Call, RouteTable, without
from altostratus.emulator.state.base import Encoded
from altostratus.emulator.state.firewalls import Firewall

ROUTES = RouteTable(networking=True)


def _firewall(call: Call, firewall_id: str) -> Firewall:
    return call.state.firewalls.get(call.account_id, call.region, firewall_id)


@ROUTES.add("GET", "/firewalls", "List firewalls", "[Firewall]")
def list_firewalls(call: Call) -> Encoded:
    firewalls = call.state.firewalls
    return firewalls.answers(firewalls.all(call.account_id, call.region))


@ROUTES.add("GET", "/firewalls/{id}", "Retrieve a firewall", "Firewall")
def get_firewall(call: Call, firewall_id: str) -> Encoded:
    return call.state.firewalls.answer(_firewall(call, firewall_id))


@ROUTES.add("POST", "/firewalls", "Create a firewall", "FirewallSaved", FirewallCreate)
def create_firewall(call: Call, fields: FirewallCreate) -> dict[str, Any]:
    firewall = call.state.firewalls.create(call.account_id, call.region, call.effects, fields)
    return {"id": firewall.id, "result": "success", "name": firewall.name}


@ROUTES.add("PUT", "/firewalls/{id}", "Rename a firewall", "FirewallSaved", FirewallUpdate)
def update_firewall(call: Call, firewall_id: str, changes: FirewallUpdate) -> dict[str, Any]:
    firewall = _firewall(call, firewall_id)
    call.state.firewalls.update(firewall, call.effects, changes)
    return {"id": firewall.id, "result": "success", "name": firewall.name}


@ROUTES.add("DELETE", "/firewalls/{id}", "Delete a firewall", "Result")
def delete_firewall(call: Call, firewall_id: str) -> dict[str, Any]:
    call.state.firewalls.delete(_firewall(call, firewall_id), call.effects)
    return dict(SUCCESS)


@ROUTES.add("GET", "/firewalls/{firewall_id}/rules", "List rules", "[Rule]")
def list_rules(call: Call, firewall_id: str) -> list[dict[str, Any]]:
    return [r.describe() for r in _firewall(call, firewall_id).rules]


@ROUTES.add("POST", "/firewalls/{firewall_id}/rules", "Add a rule", "RuleCreated", RuleCreate)
def create_rule(call: Call, firewall_id: str, fields: RuleCreate) -> dict[str, Any]:
    firewall = _firewall(call, firewall_id)
    rule = call.state.firewalls.create_rule(firewall, call.effects, fields)
    return without(rule.describe(), "ports")


@ROUTES.add(
    "PUT",
    "/firewalls/{firewall_id}/rules/{rule_id}",
    "Change a rule (not its action)",
    "RuleUpdated",
    RuleUpdate,
)
def update_rule(call: Call, firewall_id: str, rule_id: str, changes: RuleUpdate) -> dict[str, Any]:
    rule = _firewall(call, firewall_id).rule(rule_id)
    call.state.firewalls.update_rule(rule, call.effects, changes)
    return {"id": rule.id, "result": "success"}


@ROUTES.add("DELETE", "/firewalls/{firewall_id}/rules/{rule_id}", "Remove a rule", "RuleDeleted")
def delete_rule(call: Call, firewall_id: str, rule_id: str) -> dict[str, Any]:
    firewall = _firewall(call, firewall_id)
    call.state.firewalls.delete_rule(firewall.rule(rule_id), call.effects)
    return {"id": firewall.id, "result": "success", "name": firewall.name}
