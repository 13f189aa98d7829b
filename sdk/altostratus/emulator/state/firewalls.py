"""Firewalls and their rules: unique names, default rules, port rules, in-use checks."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from altostratus.emulator.errors import in_use, invalid, missing, not_found
from altostratus.emulator.reading.bodies import (
    FirewallCreate,
    FirewallUpdate,
    RuleCreate,
    RuleUpdate,
)
from altostratus.emulator.state.accounts import require_quota
from altostratus.emulator.state.base import Effects, Record, RecordTable, Store, entry, new_id

if TYPE_CHECKING:
    from altostratus.emulator.state import State


@dataclass(frozen=True)
class Rule:
    id: str
    firewall_id: str
    protocol: str
    start_port: str
    end_port: str
    cidr: tuple[str, ...]
    direction: str = "ingress"
    label: str = ""
    action: str = "allow"

    @property
    def ports(self) -> str:
        if not self.start_port or self.start_port == self.end_port:
            return self.start_port
        return f"{self.start_port}-{self.end_port}"

    def describe(self) -> dict[str, Any]:
        """The rule on its own (list answers); create answers drop ``ports``, embedding drops
        ``firewall_id``."""
        return {
            "id": self.id,
            "firewall_id": self.firewall_id,
            "protocol": self.protocol,
            "start_port": self.start_port,
            "cidr": list(self.cidr),
            "direction": self.direction,
            "label": self.label,
            "end_port": self.end_port,
            "action": self.action,
            "ports": self.ports,
        }


def port_range(protocol: str, start: int | None, end: int | None) -> tuple[str, str]:
    """Checked ``(start_port, end_port)`` text: icmp has none; an absent end is the start."""
    if protocol == "icmp":
        if start is not None or end is not None:
            name = "start_port" if start is not None else "end_port"
            raise invalid(name, "An icmp rule takes no ports")
        return "", ""
    if start is None:
        raise missing("start_port")
    high = start if end is None else end
    if high < start:
        raise invalid("end_port", "The parameter end_port must not be below start_port")
    return str(start), str(high)


def given_ports(fields: RuleCreate | RuleUpdate) -> tuple[int | None, int | None]:
    """The ports a body gives: ``start_port`` and ``end_port``, or else those of ``ports``
    (an ``end_port`` given beside it wins)."""
    start, end = fields.start_port, fields.end_port
    if start is None and fields.ports is not None:
        start, implied = fields.ports
        end = implied if end is None else end
    return start, end


def _port(text: str) -> int | None:
    return int(text) if text else None


def _new_rule(firewall_id: str, fields: RuleCreate) -> Rule:
    """A rule of ``protocol``; optional ports (checked with the protocol), ``cidr`` (default
    all), ``direction`` (ingress), ``label`` and ``action`` (allow)."""
    start, end = port_range(fields.protocol, *given_ports(fields))
    return Rule(
        id=new_id(),
        firewall_id=firewall_id,
        protocol=fields.protocol,
        start_port=start,
        end_port=end,
        cidr=fields.cidr or ("0.0.0.0/0",),
        direction=fields.direction or "ingress",
        label=fields.label or "",
        action=fields.action or "allow",
    )


@dataclass
class Firewall(Record):
    name: str
    network_id: str
    label: str = ""
    rules: tuple[Rule, ...] = ()

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise not_found("firewall_rule", "firewall rule")


class Firewalls(Store[Firewall, FirewallCreate, FirewallUpdate]):
    kind = "firewall"
    label = "firewall"
    indexed = ("name", "network_id")
    takes_time = True

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.records = RecordTable(self.indexed, weigh=lambda firewall: len(firewall.rules))

    def seed_entry(self, firewall: Firewall) -> dict[str, Any]:
        """With its rules, and no default ones besides."""
        rules = [
            {
                k: (list(v) if isinstance(v, tuple) else v)
                for k, v in dataclasses.asdict(rule).items()
                if k not in ("id", "firewall_id") and v is not None and v != ""
            }
            for rule in firewall.rules
        ]
        return entry(
            firewall,
            name=firewall.name,
            network_id=firewall.network_id,
            create_default_rules=False,
            rules=rules,
        )

    def rule_count(self, account_id: str) -> int:
        """How many rules the account's firewalls hold, in every region."""
        return self.records.total(account_id)

    def answer_inputs(self, firewall: Firewall) -> Hashable:
        return len(self.state.load_balancers.records.find("firewall_id", firewall.id))

    def describe(self, firewall: Firewall) -> dict[str, Any]:
        balancers = self.state.load_balancers.records.find("firewall_id", firewall.id)
        rules = [
            {k: v for k, v in r.describe().items() if k != "firewall_id"} for r in firewall.rules
        ]
        return {
            "id": firewall.id,
            "name": firewall.name,
            "account_id": firewall.account_id,
            "rules_count": len(firewall.rules),
            "instance_count": 0,
            "cluster_count": 0,
            "loadbalancer_count": len(balancers),
            "default": "false",
            "label": firewall.label,
            "network_id": firewall.network_id,
            "rules": rules,
        }

    def create(
        self, account_id: str, region: str, effects: Effects, fields: FirewallCreate
    ) -> Firewall:
        """``create_default_rules`` (default true) opens all traffic; ``rules`` are the rules it
        starts with (as ``create_rule`` takes them)."""
        default_rules = fields.create_default_rules is not False
        network_id = fields.network_id or self.state.networks.default_of(account_id, region).id
        self.state.networks.get_live(account_id, region, network_id)
        self.check_name_free(account_id, region, fields.name)
        require_quota(self.state, account_id, "security_group")
        inline = fields.rules or ()
        if default_rules or inline:
            count = (3 if default_rules else 0) + len(inline)
            require_quota(self.state, account_id, "security_group_rule", count)
        firewall_id = new_id()
        defaults = (("tcp", "1", "65535"), ("udp", "1", "65535"), ("icmp", "", ""))
        rules = [
            Rule(new_id(), firewall_id, protocol, start, end, ("0.0.0.0/0",))
            for protocol, start, end in (defaults if default_rules else ())
        ]
        rules += [_new_rule(firewall_id, rule) for rule in inline]
        firewall = Firewall(
            id=firewall_id,
            account_id=account_id,
            region=region,
            name=fields.name,
            network_id=network_id,
            rules=tuple(rules),
        )
        self.records[firewall.id] = firewall
        effects.emit(account_id, "firewall.created", firewall.id)
        return firewall

    def update(self, firewall: Firewall, effects: Effects, changes: FirewallUpdate) -> None:
        self.require_live(firewall)
        if changes.network_id is not None and changes.network_id != firewall.network_id:
            raise invalid("network_id", "A firewall's network cannot be changed")
        self.rename(firewall, changes.name)
        effects.emit(firewall.account_id, "firewall.updated", firewall.id)

    def check_delete(self, firewall: Firewall) -> None:
        users = self.state.load_balancers.records.find("firewall_id", firewall.id)
        if users:
            raise in_use(
                "firewall",
                f"The firewall is still used by load balancer {users[0].name!r} ({users[0].id})",
            )

    def remove(self, firewall: Firewall, effects: Effects) -> None:
        del self.records[firewall.id]
        effects.emit(firewall.account_id, "firewall.deleted", firewall.id)

    # A firewall's rules follow the same contract, scoped by their firewall.

    def create_rule(self, firewall: Firewall, effects: Effects, fields: RuleCreate) -> Rule:
        """``protocol``; optional ports (checked with the protocol), ``cidr`` (default all),
        ``direction`` (ingress), ``label`` and ``action`` (allow)."""
        self.require_live(firewall)
        _same_firewall(firewall, fields)
        rule = _new_rule(firewall.id, fields)
        require_quota(self.state, firewall.account_id, "security_group_rule")
        firewall.rules = (*firewall.rules, rule)
        effects.emit(firewall.account_id, "firewall_rule.created", rule.id)
        return rule

    def update_rule(self, rule: Rule, effects: Effects, changes: RuleUpdate) -> Rule:
        """The rule with the given fields changed; a start port given alone makes a single
        port. The action is fixed at create: a different one is refused."""
        firewall = self.records[rule.firewall_id]
        self.require_live(firewall)
        _same_firewall(firewall, changes)
        if changes.action is not None and changes.action != rule.action:
            raise invalid("action", "A rule's action cannot be changed; replace the rule instead")
        protocol = changes.protocol or rule.protocol
        start, end = given_ports(changes)
        if protocol != "icmp" and start is None:  # the rule's own ports, or a new end
            start = _port(rule.start_port)
            end = _port(rule.end_port) if end is None else end
        start_port, end_port = port_range(protocol, start, end)
        changed = dataclasses.replace(
            rule,
            protocol=protocol,
            start_port=start_port,
            end_port=end_port,
            cidr=rule.cidr if changes.cidr is None else changes.cidr,
            direction=changes.direction or rule.direction,
            label=rule.label if changes.label is None else changes.label,
        )
        firewall.rules = tuple(changed if r.id == rule.id else r for r in firewall.rules)
        effects.emit(firewall.account_id, "firewall.updated", firewall.id)
        return changed

    def delete_rule(self, rule: Rule, effects: Effects) -> None:
        firewall = self.records[rule.firewall_id]
        firewall.rules = tuple(r for r in firewall.rules if r.id != rule.id)
        effects.emit(firewall.account_id, "firewall_rule.deleted", rule.id)


def _same_firewall(firewall: Firewall, fields: RuleCreate | RuleUpdate) -> None:
    """A rule body's ``firewall_id`` (the official clients repeat the path's) must agree."""
    if fields.firewall_id is not None and fields.firewall_id != firewall.id:
        raise invalid("firewall_id", "The rule's firewall_id is not the firewall of the path")
