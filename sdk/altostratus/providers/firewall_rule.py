"""FirewallRule: one rule of a firewall, managed on its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

import pulumi
from pulumi.dynamic import CheckFailure

from altostratus.providers import _validate
from altostratus.providers._base import Provider
from altostratus.providers._inputs import Field, cidr_set, region_field
from altostratus.providers._resource import AltostratusResource

if TYPE_CHECKING:
    from altostratus.client import Client

_DEFAULTS = {"cidr": ["0.0.0.0/0"], "direction": "ingress", "action": "allow", "label": ""}


@dataclass
class FirewallRuleArgs:
    firewall_id: pulumi.Input[str] | None = None
    protocol: pulumi.Input[str] | None = None
    """tcp, udp or icmp."""
    start_port: pulumi.Input[str] | None = None
    """Port text, 1 to 65535; required for tcp and udp, refused for icmp."""
    end_port: pulumi.Input[str] | None = None
    cidr: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None
    """Source (ingress) or destination (egress) blocks; service default 0.0.0.0/0."""
    direction: pulumi.Input[str] | None = None
    label: pulumi.Input[str] | None = None
    action: pulumi.Input[str] | None = None
    region: pulumi.Input[str] | None = None


def _digits(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and value.isdigit()


def _port_range(rule: Any) -> tuple[str, str]:
    start = rule.get("start_port") or ""
    return start, rule.get("end_port") or start


class FirewallRuleProvider(Provider):
    kind = "firewall rule"
    collection = "firewall_rules"
    unique_lookup = False
    fields = (
        Field("firewall_id", _validate.text, required=True, replaces=True),
        region_field(),
        Field("protocol", _validate.one_of("tcp", "udp", "icmp"), required=True),
        Field("start_port", _validate.port_text),
        Field("end_port", _validate.port_text),
        Field("cidr", _validate.cidr_list, normalize=cidr_set),
        Field("direction", _validate.one_of("ingress", "egress")),
        Field("label", _validate.optional_text),
        Field("action", _validate.one_of("allow", "deny"), replaces=True),
    )

    def _check_together(self, inputs: dict[str, Any]) -> list[CheckFailure]:
        protocol, start, end = (inputs.get(k) for k in ("protocol", "start_port", "end_port"))
        if protocol == "icmp":
            given = [name for name in ("start_port", "end_port") if inputs.get(name) is not None]
            return [CheckFailure(name, f"{name} must be left out for icmp") for name in given]
        if protocol in ("tcp", "udp") and start is None:
            return [CheckFailure("start_port", f"start_port is required for {protocol}")]
        if _digits(start) and _digits(end) and int(end) < int(start):
            return [CheckFailure("end_port", f"end_port {end} is below start_port {start}")]
        return []

    def _post(self, api: Client, inputs: dict[str, Any]) -> Any:
        params = {name: value for name, value in inputs.items() if name != "firewall_id"}
        return api.firewall_rules.create(inputs["firewall_id"], **{**params, **self._where(inputs)})

    def _settle(self, api: Client, inputs: dict[str, Any], record: Any) -> dict[str, Any]:
        live = self._live(api, record, inputs)
        if live.get("ports") is None and live.get("start_port"):
            start, end = _port_range(live)
            live["ports"] = start if end == start else f"{start}-{end}"
        return live

    def _lookup(self, api: Client, inputs: dict[str, Any]) -> list[Any]:
        wanted = {**_DEFAULTS, **inputs}
        rules = api.firewall_rules.list(inputs["firewall_id"], **self._where(inputs))
        return [
            rule
            for rule in rules
            if rule.protocol == wanted["protocol"]
            and _port_range(rule.model_dump()) == _port_range(wanted)
            and cidr_set(rule.cidr) == cidr_set(wanted["cidr"])
            and (rule.direction, rule.action) == (wanted["direction"], wanted["action"])
            and (rule.label or "") == wanted["label"]
        ]

    def _fetch(self, api: Client, id_: str, props: dict[str, Any]) -> dict[str, Any]:
        rule = api.firewall_rules.get(props["firewall_id"], id_, **self._where(props))
        return self._live(api, rule, props)

    def _apply(
        self, api: Client, id_: str, olds: dict[str, Any], news: dict[str, Any], changed: set[str]
    ) -> dict[str, Any]:
        params = self._updates(news, changed)
        api.firewall_rules.update(news["firewall_id"], id_, **params, **self._where(news))
        return self._fetch(api, id_, news)

    def _remove(self, api: Client, id_: str, props: dict[str, Any]) -> None:
        api.firewall_rules.delete(props["firewall_id"], id_, **self._where(props))


class FirewallRule(
    AltostratusResource[FirewallRuleArgs], module="altostratus", name="FirewallRule"
):
    """A firewall rule. Changing ``firewall_id``, ``region`` or ``action`` replaces it; the
    protocol, ports, ``cidr``, ``direction`` and ``label`` update in place."""

    _provider_class = FirewallRuleProvider
    _args_class = FirewallRuleArgs

    firewall_id: pulumi.Output[str]
    protocol: pulumi.Output[str]
    start_port: pulumi.Output[str]
    end_port: pulumi.Output[str]
    ports: pulumi.Output[str]
    cidr: pulumi.Output[list[str]]
    direction: pulumi.Output[str]
    label: pulumi.Output[str]
    action: pulumi.Output[str]
    region: pulumi.Output[str]
