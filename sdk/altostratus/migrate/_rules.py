"""A firewall's inline rules (``ingress_rule`` and ``egress_rule`` blocks) as ``FirewallRule``s.

The Terraform provider keeps a firewall's rules inside it, each with its ``id``, ``protocol``
(default tcp), ``port_range`` (``"22"``, ``"8000-8080"``, empty for icmp), ``cidr`` (a set),
``label`` and ``action``; the direction is the block's. Each rule becomes a ``FirewallRule`` of
its own, adopted by its id, so nothing is made anew (``Firewall``'s inline ``ingress_rules``
would create its rules). The rules the service adds to a firewall made with
``create_default_rules`` (tcp and udp 1-65535 and icmp, from 0.0.0.0/0) belong to the firewall
and stay undeclared, as they are when ``Firewall`` makes them.
"""

from __future__ import annotations

import re
from typing import Any

from altostratus.migrate._checks import check_text, expect, optional, texts
from altostratus.migrate._declarations import Declaration, Reference
from altostratus.migrate._source import SECRET, is_secret

DEFAULT_RULES = frozenset({("tcp", "1", "65535"), ("udp", "1", "65535"), ("icmp", "", "")})
"""The service's default rules, ``(protocol, start_port, end_port)``: ingress, allowed, from
0.0.0.0/0 and unlabelled."""

_RANGE = re.compile(r"^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$")


def port_range(protocol: str, text: Any) -> tuple[str, str] | None:
    """``(start_port, end_port)`` of a rule (``end_port`` empty for a single port; both for
    icmp), or None when the range cannot be read."""
    if protocol == "icmp":
        return "", ""
    found = _RANGE.match(text) if isinstance(text, str) else None
    if found is None:
        return None
    start, end = found[1], found[2] or ""
    if not all(1 <= int(port) <= 65535 for port in (start, end or start)):
        return None
    if end and int(end) < int(start):
        return None
    return start, end


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _text(rule: dict[str, Any], key: str, default: str, label: str, where: str) -> str:
    """The rule's ``key`` as checked text, ``default`` when unset."""
    value = optional(rule.get(key), str, label, f"{where}.{key}")
    return check_text(value or default, label, f"{where}.{key}")


def inline_rules(firewall: Declaration, notes: list[str]) -> list[Declaration]:
    """The firewall's inline rules as adopted ``FirewallRule`` declarations."""
    source = firewall.origin
    defaults = (
        set(DEFAULT_RULES) if source.values.get("create_default_rules") is not False else set()
    )
    kept = 0
    rules: list[Declaration] = []
    names: set[str] = set()
    for direction in ("ingress", "egress"):
        field = f"{direction}_rule"
        blocks = source.values.get(field)
        if blocks is SECRET:
            continue
        for index, rule in enumerate(optional(blocks, list, source.label, field) or [], start=1):
            if is_secret(rule):
                continue
            where = f"{field}[{index}]"
            expect(rule, dict, source.label, where)
            protocol = _text(rule, "protocol", "tcp", source.label, where).lower()
            label = _text(rule, "label", "", source.label, where)
            action = _text(rule, "action", "allow", source.label, where).lower()
            cidr = sorted(texts(rule.get("cidr"), source.label, f"{where}.cidr"))
            cidr = cidr or ["0.0.0.0/0"]
            rule_id = _text(rule, "id", "", source.label, where)
            _text(rule, "port_range", "", source.label, where)
            what = f'{direction} rule "{label}"' if label else f"{direction} rule {index}"
            ports = port_range(protocol, rule.get("port_range"))
            if ports is None:
                notes.append(
                    f"{source.label}: its {what} has the port range "
                    f"{rule.get('port_range')!r}, which a rule cannot take: not carried"
                )
                continue
            shape = (protocol, *ports)
            is_default = direction == "ingress" and action == "allow" and not label
            if is_default and cidr == ["0.0.0.0/0"] and shape in defaults:
                defaults.discard(shape)
                kept += 1
                continue
            if not rule_id:
                notes.append(f"{source.label}: its {what} has no id in the state: not carried")
                continue
            name = f"{firewall.name}-{direction}-{_slug(label) or index}"
            while name in names:
                name += "-2"
            names.add(name)
            inputs: dict[str, Any] = {"firewall_id": Reference(firewall), "protocol": protocol}
            if ports[0]:
                inputs["start_port"] = ports[0]
            if ports[1]:
                inputs["end_port"] = ports[1]
            inputs.update(cidr=cidr, direction=direction)
            if label:
                inputs["label"] = label
            inputs["action"] = action
            if "region" in firewall.inputs:
                inputs["region"] = firewall.inputs["region"]
            rules.append(Declaration("FirewallRule", name, rule_id, source, what, inputs))
    if len(rules) == 1:
        notes.append(
            f"{source.label}: its inline rule is declared as a `FirewallRule` adopted by its id, "
            "not made anew"
        )
    elif rules:
        notes.append(
            f"{source.label}: its {len(rules)} inline rules are declared as `FirewallRule`s "
            "adopted by their ids, not made anew"
        )
    if kept:
        notes.append(
            f"{source.label}: the service's {kept} default rules (`create_default_rules`) stay "
            "with the firewall, undeclared, as when `Firewall` creates them"
        )
    return rules
