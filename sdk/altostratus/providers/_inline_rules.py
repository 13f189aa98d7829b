"""A firewall's inline rules (``Firewall(ingress_rules=[...], egress_rules=[...])``), as the
bridged provider's ``ingress_rule`` and ``egress_rule`` blocks have them.

Each rule takes a ``FirewallRule``'s inputs without ``firewall_id``, ``region`` and ``direction``
(the list's). The service's firewall create takes no rules (the spec's create body), so the rules
are made one by one through the rule calls once the firewall exists, and reconciled the same way
on update: a rule the program still lists is kept (matched by its protocol, ports, ``cidr`` set,
``label`` and ``action``), a new one created, one no longer listed deleted. A live rule of a
listed shape that no state records (one left by an update that failed half-way) is taken rather
than made twice. Rules are never changed in place: a rule's ``action`` cannot change, and a
deleted-then-created rule is the bridged provider's behaviour too.

Which rules a firewall owns is recorded in its state: the outputs ``ingress_rules`` and
``egress_rules`` carry each rule with its ``id``. A direction is managed only when its list is
given. A read reports every rule of a managed direction: the owned ones, and any other (a
``FirewallRule``, or one added by hand) as drift, so ``pulumi refresh`` shows it and the next
``pulumi up`` removes it; the service's default rules (``create_default_rules``) stay with the
firewall, unreported. Only rules recorded in state are ever deleted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, TypeGuard

import pulumi
from typing_extensions import NotRequired

from altostratus.client.errors import OutcomeUnknownError
from altostratus.providers import _validate
from altostratus.providers._inputs import arg, cidr_set, expand_port_range
from altostratus.providers._validate import contains_unknown

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.client import FirewallRule as RuleRecord

DIRECTIONS = {"ingress_rules": "ingress", "egress_rules": "egress"}
"""Each inline-rule input, with the direction of its rules."""
DEFAULT_RULES = frozenset({("tcp", "1", "65535"), ("udp", "1", "65535"), ("icmp", "", "")})
"""The service's default rules, ``(protocol, start_port, end_port)``: ingress, allowed, from
0.0.0.0/0 and unlabelled."""
_ANY = ["0.0.0.0/0"]
_CHECKS = {
    "protocol": _validate.one_of("tcp", "udp", "icmp"),
    "start_port": _validate.port_text,
    "end_port": _validate.port_text,
    "port_range": _validate.port_range,
    "cidr": _validate.cidr_list,
    "label": _validate.optional_text,
    "action": _validate.one_of("allow", "deny"),
}


@dataclass
class FirewallInlineRuleArgs:
    protocol: pulumi.Input[str]
    """tcp, udp or icmp."""
    start_port: pulumi.Input[str] | None = None
    """Port text, 1 to 65535; required for tcp and udp, refused for icmp."""
    end_port: pulumi.Input[str] | None = None
    """The last port of a range; ``start_port`` alone is one port."""
    cidr: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None
    """Source (ingress) or destination (egress) blocks; service default 0.0.0.0/0."""
    label: pulumi.Input[str] | None = None
    """A display name for the rule."""
    action: pulumi.Input[str] | None = None
    """allow (service default) or deny."""
    port_range: pulumi.Input[str] | None = None
    """The ports as one text, "80" or "80-443" (the Terraform provider's blocks), in place of
    ``start_port`` and ``end_port``: not with them."""


# <generated: FirewallInlineRuleArgsDict>
class FirewallInlineRuleArgsDict(TypedDict):
    protocol: pulumi.Input[str]
    start_port: NotRequired[pulumi.Input[str]]
    end_port: NotRequired[pulumi.Input[str]]
    cidr: NotRequired[pulumi.Input[Sequence[pulumi.Input[str]]]]
    label: NotRequired[pulumi.Input[str]]
    action: NotRequired[pulumi.Input[str]]
    port_range: NotRequired[pulumi.Input[str]]


# </generated>


def inline_rule(value: Any) -> str | None:
    """Why ``value`` is not an inline rule, or None."""
    if not isinstance(value, dict):
        return "must be a rule with protocol and, for tcp and udp, start_port"
    unknown = sorted(set(value) - set(_CHECKS) - {"id"})
    if unknown:
        return f"has unknown fields {unknown} (the list gives the direction)"
    for key, check in _CHECKS.items():
        given = value.get(key)
        if given is None:
            if key == "protocol":
                return "protocol is required"
            continue
        reason = None if contains_unknown(given) else check(given)
        if reason is not None:
            return f"{key} {reason}"
    value = dict(value)
    both = expand_port_range(value)
    if both is not None:
        return both
    if value.get("port_range") is not None:
        return None  # unknown until the deployment
    protocol, start, end = (value.get(k) for k in ("protocol", "start_port", "end_port"))
    if protocol == "icmp" and (start is not None or end is not None):
        return "start_port and end_port must be left out for icmp"
    if protocol in ("tcp", "udp") and start is None:
        return f"start_port is required for {protocol}"
    if _digits(start) and _digits(end) and int(end) < int(start):
        return f"end_port {end} is below start_port {start}"
    return None


def _digits(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and value.isdigit()


def coerced(value: Any) -> Any:
    """The rules without the fields left out (None), a ``port_range`` as ``start_port`` and
    ``end_port``."""
    if not isinstance(value, list):
        return value
    rules = []
    for rule in value:
        if isinstance(rule, dict):
            rule = {k: v for k, v in rule.items() if v is not None}
            expand_port_range(rule)
        rules.append(rule)
    return rules


def shape(rule: Any) -> tuple[Any, ...]:
    """What identifies a rule within its direction: protocol, port range, ``cidr`` set, label
    and action, with the service's defaults filled in."""

    def get(key: str) -> Any:
        return rule.get(key) if isinstance(rule, dict) else getattr(rule, key, None)

    protocol = str(get("protocol") or "")
    start = "" if protocol == "icmp" else str(get("start_port") or "")
    end = "" if protocol == "icmp" else str(get("end_port") or start)
    cidr = tuple(cidr_set(get("cidr") or _ANY))
    return (protocol, start, end, cidr, str(get("label") or ""), str(get("action") or "allow"))


def rule_set(value: Any) -> Any:
    """An inline-rule list as ``diff`` compares it: its rules' shapes, in any order; an absent
    list (an unmanaged direction) stays None."""
    if not isinstance(value, list) or contains_unknown(value):
        return value
    return sorted(shape(rule) for rule in value)


def is_default(rule: RuleRecord) -> bool:
    protocol, start, end, cidr, label, action = shape(rule)
    return (
        rule.direction == "ingress"
        and (protocol, start, end) in DEFAULT_RULES
        and (cidr, label, action) == (tuple(_ANY), "", "allow")
    )


def output(rule: RuleRecord) -> dict[str, Any]:
    """An inline rule as the outputs carry it: its id and its inputs."""
    protocol, start, end, cidr, label, action = shape(rule)
    out: dict[str, Any] = {"id": rule.id, "protocol": protocol}
    if start:
        out.update(start_port=start, end_port=end)
    out.update(cidr=list(cidr), label=label, action=action)
    return out


def owned_ids(props: dict[str, Any]) -> set[str]:
    """The ids of the rules the firewall's state records as its own."""
    return {
        str(rule["id"])
        for name in DIRECTIONS
        for rule in props.get(name) or []
        if isinstance(rule, dict) and rule.get("id")
    }


def reported(
    rules: Sequence[RuleRecord], props: dict[str, Any], *, default_rules: bool
) -> dict[str, Any]:
    """Each direction's output: for a managed one, every rule of the direction but the
    service's default ones that the firewall does not own; None for one not managed."""
    owned = owned_ids(props)
    outs: dict[str, Any] = {}
    for name, direction in DIRECTIONS.items():
        if props.get(name) is None:
            outs[name] = None
            continue
        outs[name] = [
            output(rule)
            for rule in rules
            if rule.direction == direction
            and (rule.id in owned or not (default_rules and is_default(rule)))
        ]
    return outs


def rules_arg(alias: str) -> Any:
    """A ``Firewall`` input of one direction's inline rules (``alias``: the bridged provider's
    name for it): absent means unmanaged, so it is not kept from the last inputs; compared as a
    set of rule shapes."""
    return arg(
        _validate.list_of(inline_rule, allowed_empty=True),
        normalize=rule_set,
        coerce=coerced,
        keep_when_absent=False,
        alias=alias,
    )


def reconcile(
    api: Client,
    firewall_id: str,
    region: str,
    wanted: dict[str, Any],
    owned: dict[str, Any],
) -> dict[str, Any]:
    """Make the firewall's rules of each direction ``wanted`` lists (``owned``: the rules its
    state records, with ids). A wanted rule takes, in turn, a live owned rule of its shape, a
    live rule of its shape that no state records (left by an update that failed half-way, or
    made outside the program), or a new rule; the owned rules left over are deleted. Answers
    ``wanted``'s lists, each rule with its id. Without rules wanted or owned, nothing is
    asked of the service."""
    if not any(wanted.get(name) or owned.get(name) for name in DIRECTIONS):
        return {name: [] for name in DIRECTIONS if wanted.get(name) is not None}
    live = api.firewall_rules.list(firewall_id, region=region)
    known = {rule.id for rule in live}
    recorded = owned_ids(owned)
    made: dict[str, Any] = {}
    stale: list[str] = []
    for name, direction in DIRECTIONS.items():
        keep = [r for r in owned.get(name) or [] if isinstance(r, dict) and r.get("id") in known]
        spare = [output(r) for r in live if r.direction == direction and r.id not in recorded]
        rules = []
        for rule in wanted.get(name) or []:
            match = next((r for r in (*keep, *spare) if shape(r) == shape(rule)), None)
            if match is not None:
                (keep if match in keep else spare).remove(match)
                rules.append({**rule, "id": match["id"]})
            else:
                created = _create(api, firewall_id, region, direction, rule, known)
                rules.append({**rule, "id": created})
        stale += [str(old["id"]) for old in keep]
        if wanted.get(name) is not None:
            made[name] = rules
    for rule_id in stale:
        api.firewall_rules.delete(firewall_id, rule_id, region=region)
    return made


def _create(
    api: Client, firewall_id: str, region: str, direction: str, rule: Any, known: set[str]
) -> str:
    """One rule, made once: after a lost answer, a rule of the same shape that is not among
    the ``known`` ones (the firewall's rules before) is the one made."""
    for attempt in (1, 2):
        try:
            made_id = api.firewall_rules.create(
                firewall_id,
                protocol=rule["protocol"],
                start_port=rule.get("start_port"),
                end_port=rule.get("end_port"),
                cidr=rule.get("cidr"),
                direction=direction,
                label=rule.get("label"),
                action=rule.get("action"),
                region=region,
            ).id
        except OutcomeUnknownError:
            live = api.firewall_rules.list(firewall_id, region=region)
            made = [
                r.id
                for r in live
                if r.id not in known and r.direction == direction and shape(r) == shape(rule)
            ]
            if not made and attempt == 2:
                raise
            if not made:
                continue
            made_id = made[0]
        known.add(made_id)
        return made_id
    raise AssertionError("unreachable")
