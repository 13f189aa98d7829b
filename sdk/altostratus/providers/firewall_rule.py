"""FirewallRule: one rule of a firewall, managed on its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard

import pulumi
from pulumi.dynamic import CheckFailure, ReadResult

from altostratus.client.errors import NotFoundError
from altostratus.providers import _regions, _validate
from altostratus.providers._base import Provider
from altostratus.providers._inputs import (
    READ_GIVEN,
    arg,
    cidr_set,
    expand_port_range,
    inputs_of,
    region_arg,
    required,
)
from altostratus.providers._resource import AltostratusResource

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.client import FirewallRule as RuleRecord

_DEFAULTS = {"cidr": ["0.0.0.0/0"], "direction": "ingress", "action": "allow", "label": ""}


@dataclass(kw_only=True)
class FirewallRuleArgs:
    firewall_id: pulumi.Input[str] = field(metadata=required(_validate.text, replaces=True))
    """The firewall the rule belongs to."""
    protocol: pulumi.Input[str] = field(metadata=required(_validate.one_of("tcp", "udp", "icmp")))
    """tcp, udp or icmp."""
    start_port: pulumi.Input[str] | None = arg(_validate.port_text)
    """Port text, 1 to 65535; required for tcp and udp (or ``port_range``), refused for icmp."""
    end_port: pulumi.Input[str] | None = arg(_validate.port_text)
    """The last port of a range; ``start_port`` alone is one port."""
    cidr: pulumi.Input[Sequence[pulumi.Input[str]]] | None = arg(
        _validate.cidr_list, normalize=cidr_set
    )
    """Source (ingress) or destination (egress) blocks; service default 0.0.0.0/0."""
    direction: pulumi.Input[str] | None = arg(_validate.one_of("ingress", "egress"))
    """ingress (the service's default) or egress."""
    label: pulumi.Input[str] | None = arg(_validate.optional_text)
    """A display name for the rule."""
    action: pulumi.Input[str] | None = arg(_validate.one_of("allow", "deny"), replaces=True)
    """allow (the service's default) or deny."""
    region: pulumi.Input[str] | None = region_arg()
    port_range: pulumi.Input[str] | None = arg(_validate.port_range)
    """The ports as one text, "80" or "80-443" (the Terraform provider's ``port_range``), in
    place of ``start_port`` and ``end_port``: not with them. Sent and stored as those two; the
    output is the rule's range in this form, whichever form the program gave."""


def _digits(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and value.isdigit()


def _port_range(rule: Any) -> tuple[str, str]:
    start = rule.get("start_port") or ""
    return start, rule.get("end_port") or start


class FirewallRuleProvider(Provider["RuleRecord"]):
    """Rules live under their firewall: every call names ``firewall_id`` first."""

    kind = "firewall rule"
    unique_lookup = False
    full_create_answer = True
    reference = "firewall_id"
    referred_kind = "firewall"
    read_under_reference = True
    reference_missing = frozenset({"database_firewall_not_found"})
    fields = inputs_of(FirewallRuleArgs)

    def _refers_in(self, api: Client, value: str, region: str) -> bool:
        return _regions.found(lambda: api.firewalls.get(value, region=region))

    def _check_together(self, inputs: dict[str, Any]) -> list[CheckFailure]:
        """The port rules; a ``port_range`` becomes ``start_port`` and ``end_port`` first."""
        both = expand_port_range(inputs)
        if both is not None:
            return [CheckFailure("port_range", both)]
        if inputs.get("port_range") is not None:
            return []  # unknown until the deployment: the ports are checked then
        protocol, start, end = (inputs.get(k) for k in ("protocol", "start_port", "end_port"))
        if protocol == "icmp":
            given = [name for name in ("start_port", "end_port") if inputs.get(name) is not None]
            return [CheckFailure(name, f"{name} must be left out for icmp") for name in given]
        if protocol in ("tcp", "udp") and start is None:
            return [CheckFailure("start_port", f"start_port is required for {protocol}")]
        if _digits(start) and _digits(end) and int(end) < int(start):
            return [CheckFailure("end_port", f"end_port {end} is below start_port {start}")]
        return []

    def _post(self, api: Client, inputs: dict[str, Any]) -> RuleRecord:
        return api.firewall_rules.create(
            inputs["firewall_id"],
            protocol=inputs["protocol"],
            start_port=inputs.get("start_port"),
            end_port=inputs.get("end_port"),
            cidr=inputs.get("cidr"),
            direction=inputs.get("direction"),
            label=inputs.get("label"),
            action=inputs.get("action"),
            region=self._region(inputs),
        )

    def _live(self, api: Client, record: RuleRecord, props: dict[str, Any]) -> dict[str, Any]:
        live = super()._live(api, record, props)
        start, end = _port_range(live)
        live["port_range"] = (start if end == start else f"{start}-{end}") if start else None
        return live

    def _settle(self, api: Client, inputs: dict[str, Any], record: RuleRecord) -> dict[str, Any]:
        live = self._live(api, record, inputs)
        if live.get("ports") is None and live.get("start_port"):
            start, end = _port_range(live)
            live["ports"] = start if end == start else f"{start}-{end}"
        return live

    def _lookup(self, api: Client, inputs: dict[str, Any]) -> list[RuleRecord]:
        wanted = {**_DEFAULTS, **inputs}
        try:
            rules = api.firewall_rules.list(inputs["firewall_id"], region=self._region(inputs))
        except NotFoundError:
            return []  # no such firewall in the region asked: nothing made there (see _regions)
        return [
            rule
            for rule in rules
            if rule.protocol == wanted["protocol"]
            and _port_range(rule.model_dump()) == _port_range(wanted)
            and cidr_set(rule.cidr) == cidr_set(wanted["cidr"])
            and (rule.direction, rule.action) == (wanted["direction"], wanted["action"])
            and (rule.label or "") == wanted["label"]
        ]

    def read(self, id_: str, props: dict[str, Any]) -> ReadResult:
        """As any read; but the inputs of a rule read with no ``port_range`` given (an import:
        only ``firewall_id`` is known) give the ports once, as ``start_port`` and ``end_port``.
        Both forms at once would fail the check of the code written from them."""
        result = super().read(id_, props)
        if props.get("port_range") is None and result.inputs:
            result.inputs.pop("port_range", None)
        return result

    def _read(self, api: Client, id_: str, props: dict[str, Any]) -> RuleRecord:
        return api.firewall_rules.get(props["firewall_id"], id_, region=self._region(props))

    def _put(self, api: Client, id_: str, changes: dict[str, Any], props: dict[str, Any]) -> None:
        api.firewall_rules.update(
            props["firewall_id"],
            id_,
            protocol=changes.get("protocol"),
            start_port=changes.get("start_port"),
            end_port=changes.get("end_port"),
            cidr=changes.get("cidr"),
            direction=changes.get("direction"),
            label=changes.get("label"),
            region=self._region(props),
        )

    def _remove(self, api: Client, id_: str, props: dict[str, Any]) -> None:
        api.firewall_rules.delete(props["firewall_id"], id_, region=self._region(props))


async def _outside_inline_rules(rule: str, firewall_id: pulumi.Output[str]) -> None:
    """Raise when ``firewall_id`` comes from a ``Firewall`` of the program that has inline rules:
    that firewall owns all its rules, and would remove this one at its next update."""
    from altostratus.providers.firewall import Firewall

    for resource in await firewall_id.resources():
        if isinstance(resource, Firewall) and resource._manages_rules:
            raise ValueError(
                f"FirewallRule {rule!r} cannot be added to Firewall {resource._name!r}: that "
                "firewall manages its rules inline (ingress_rules, egress_rules); declare the "
                "rule in its list instead"
            )


class FirewallRule(
    AltostratusResource[FirewallRuleArgs], module="altostratus", name="FirewallRule"
):
    """A firewall rule. Changing ``firewall_id``, ``region`` or ``action`` replaces it; the
    protocol, ports, ``cidr``, ``direction`` and ``label`` update in place. A rule whose
    ``firewall_id`` comes from a ``Firewall`` with inline rules is refused (the program fails
    naming both): that firewall owns every rule."""

    _provider_class = FirewallRuleProvider
    _args_class = FirewallRuleArgs

    firewall_id: pulumi.Output[str]
    protocol: pulumi.Output[str]
    start_port: pulumi.Output[str]
    end_port: pulumi.Output[str]
    ports: pulumi.Output[str]
    """The ports as the service's text."""
    cidr: pulumi.Output[list[str]]
    direction: pulumi.Output[str]
    label: pulumi.Output[str]
    action: pulumi.Output[str]
    region: pulumi.Output[str]
    port_range: pulumi.Output[str]

    # <generated: FirewallRule.__init__>
    def __init__(
        self,
        resource_name: str,
        args: FirewallRuleArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        firewall_id: pulumi.Input[str] | None = None,
        protocol: pulumi.Input[str] | None = None,
        start_port: pulumi.Input[str] | None = None,
        end_port: pulumi.Input[str] | None = None,
        cidr: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None,
        direction: pulumi.Input[str] | None = None,
        label: pulumi.Input[str] | None = None,
        action: pulumi.Input[str] | None = None,
        region: pulumi.Input[str] | None = None,
        port_range: pulumi.Input[str] | None = None,
    ) -> None:
        self._declare(
            resource_name,
            args,
            opts,
            firewall_id=firewall_id,
            protocol=protocol,
            start_port=start_port,
            end_port=end_port,
            cidr=cidr,
            direction=direction,
            label=label,
            action=action,
            region=region,
            port_range=port_range,
        )

    # </generated>

    def _register(
        self, resource_name: str, props: dict[str, Any], opts: pulumi.ResourceOptions | None
    ) -> None:
        firewall_id = props.get("firewall_id")
        if READ_GIVEN not in props and isinstance(firewall_id, pulumi.Output):
            check = _outside_inline_rules(resource_name, firewall_id)
            checked: pulumi.Output[None] = pulumi.Output.from_input(check)
            props["firewall_id"] = pulumi.Output.all(firewall_id, checked).apply(lambda v: v[0])
        super()._register(resource_name, props, opts)

    @classmethod
    def get(
        cls,
        resource_name: str,
        id: pulumi.Input[str],
        opts: pulumi.ResourceOptions | None = None,
        *,
        firewall_id: pulumi.Input[str] | None = None,
        region: pulumi.Input[str] | None = None,
    ) -> FirewallRule:
        """An existing rule of the firewall ``firewall_id`` (required: rules live under their
        firewall), read into the program and not managed by it (see ``Network.get``)."""
        if firewall_id is None:
            raise ValueError("FirewallRule.get needs the rule's firewall_id")
        where = {"firewall_id": firewall_id, "region": region}
        return cls._read_existing(resource_name, id, opts, where)
