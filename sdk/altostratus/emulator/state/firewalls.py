"""Firewalls and their rules: unique names, default rules, port rules, in-use checks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from altostratus.emulator.errors import in_use, invalid, missing, not_found
from altostratus.emulator.params import port_number
from altostratus.emulator.state.accounts import require_quota
from altostratus.emulator.state.base import Effects, Record, RecordTable, Store, new_id

if TYPE_CHECKING:
    from altostratus.emulator.state import State

PROTOCOLS = ("tcp", "udp", "icmp")
DIRECTIONS = ("ingress", "egress")
DIRECTION_ALIASES = {"inbound": "ingress", "outbound": "egress"}
"""The official clients' other spellings of a direction."""
ACTIONS = ("allow", "deny")


@dataclass
class Rule:
    id: str
    firewall_id: str
    protocol: str
    start_port: str
    end_port: str
    cidr: list[str]
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


def port_range(protocol: str, start: Any, end: Any) -> tuple[str, str]:
    """Validated ``(start_port, end_port)`` text: icmp has none; an absent end is the start."""
    start = None if start == "" else start
    end = None if end == "" else end
    if protocol == "icmp":
        if start is not None or end is not None:
            name = "start_port" if start is not None else "end_port"
            raise invalid(name, "An icmp rule takes no ports")
        return "", ""
    if start is None:
        raise missing("start_port")
    low = _port("start_port", start)
    high = low if end is None else _port("end_port", end)
    if high < low:
        raise invalid("end_port", "The parameter end_port must not be below start_port")
    return str(low), str(high)


def split_ports(value: str) -> tuple[str, str | None]:
    """``ports`` as ``(start_port, end_port)``: ``"22"`` is one port, ``"8000-8080"`` a range
    (then checked with the protocol, like the separate fields)."""
    start, dash, end = value.partition("-")
    parts = [start, end] if dash else [start]
    if not all(port_number(part) is not None for part in parts):
        raise invalid(
            "ports", "The parameter ports must be <start> or <start>-<end>, ports from 1 to 65535"
        )
    return start.strip(), end.strip() if dash else None


def _port(name: str, value: Any) -> int:
    number = port_number(value)
    if number is None:
        raise invalid(name, f"The parameter {name} must be a port number from 1 to 65535")
    return number


def _new_rule(firewall_id: str, fields: Mapping[str, Any]) -> Rule:
    """A rule of ``protocol``; optional ports (checked with the protocol), ``cidr`` (default
    all), ``direction`` (ingress), ``label`` and ``action`` (allow)."""
    protocol = fields["protocol"]
    start, end = port_range(protocol, fields.get("start_port"), fields.get("end_port"))
    return Rule(
        id=new_id(),
        firewall_id=firewall_id,
        protocol=protocol,
        start_port=start,
        end_port=end,
        cidr=fields.get("cidr") or ["0.0.0.0/0"],
        direction=fields.get("direction") or "ingress",
        label=fields.get("label") or "",
        action=fields.get("action") or "allow",
    )


@dataclass
class Firewall(Record):
    name: str
    network_id: str
    label: str = ""
    rules: list[Rule] = field(default_factory=list)

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise not_found("firewall_rule", "firewall rule")


class Firewalls(Store[Firewall]):
    kind = "firewall"
    label = "firewall"
    indexed = ("name", "network_id")
    takes_time = True

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.records = RecordTable(self.indexed, weigh=lambda firewall: len(firewall.rules))

    def rule_count(self, account_id: str) -> int:
        """How many rules the account's firewalls hold, in every region."""
        return self.records.total(account_id)

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
        self, account_id: str, region: str, effects: Effects, fields: Mapping[str, Any]
    ) -> Firewall:
        """``name``, ``network_id``; ``create_default_rules`` (default true) opens all traffic;
        ``rules``, the fields of rules it starts with (as ``create_rule`` takes them)."""
        name, network_id = fields["name"], fields["network_id"]
        default_rules = fields.get("create_default_rules")
        default_rules = True if default_rules is None else default_rules
        self.state.networks.get_live(account_id, region, network_id)
        self.check_name_free(account_id, region, name)
        require_quota(self.state, account_id, "security_group")
        inline = fields.get("rules") or []
        if default_rules or inline:
            count = (3 if default_rules else 0) + len(inline)
            require_quota(self.state, account_id, "security_group_rule", count)
        firewall = Firewall(
            id=new_id(), account_id=account_id, region=region, name=name, network_id=network_id
        )
        if default_rules:
            for protocol, start, end in (
                ("tcp", "1", "65535"),
                ("udp", "1", "65535"),
                ("icmp", "", ""),
            ):
                firewall.rules.append(
                    Rule(new_id(), firewall.id, protocol, start, end, ["0.0.0.0/0"])
                )
        firewall.rules.extend(_new_rule(firewall.id, rule) for rule in inline)
        self.records[firewall.id] = firewall
        effects.emit(account_id, "firewall.created", firewall.id)
        return firewall

    def update(self, firewall: Firewall, effects: Effects, changes: Mapping[str, Any]) -> None:
        self.require_live(firewall)
        self.rename(firewall, changes)
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

    def create_rule(self, firewall: Firewall, effects: Effects, fields: Mapping[str, Any]) -> Rule:
        """``protocol``; optional ports (checked with the protocol), ``cidr`` (default all),
        ``direction`` (ingress), ``label`` and ``action`` (allow)."""
        self.require_live(firewall)
        rule = _new_rule(firewall.id, fields)
        require_quota(self.state, firewall.account_id, "security_group_rule")
        firewall.rules.append(rule)
        firewall.touch()
        self.records.reweigh(firewall)
        effects.emit(firewall.account_id, "firewall_rule.created", rule.id)
        return rule

    def update_rule(self, rule: Rule, effects: Effects, changes: Mapping[str, Any]) -> None:
        """Given fields change; a start port given alone makes a single port. The action is fixed
        at create: a different one is refused."""
        firewall = self.records[rule.firewall_id]
        self.require_live(firewall)
        firewall.touch()
        action = changes.get("action")
        if action is not None and action != rule.action:
            raise invalid("action", "A rule's action cannot be changed; replace the rule instead")
        protocol = changes.get("protocol", rule.protocol)
        if protocol == "icmp":
            start, end = changes.get("start_port"), changes.get("end_port")
        else:
            start = changes.get("start_port", rule.start_port or None)
            end = changes.get("end_port", None if "start_port" in changes else rule.end_port)
        rule.start_port, rule.end_port = port_range(protocol, start, end)
        rule.protocol = protocol
        for name in ("cidr", "direction", "label"):
            if name in changes:
                setattr(rule, name, changes[name])
        effects.emit(
            self.records[rule.firewall_id].account_id, "firewall.updated", rule.firewall_id
        )

    def delete_rule(self, rule: Rule, effects: Effects) -> None:
        firewall = self.records[rule.firewall_id]
        firewall.rules.remove(rule)
        firewall.touch()
        self.records.reweigh(firewall)
        effects.emit(firewall.account_id, "firewall_rule.deleted", rule.id)
