"""A firewall's inline rules in a program run by ``altostratus.testing`` (the runner, and the real
engine where it is built): the bridged provider's shape converges, and a ``FirewallRule`` on such
a firewall is refused naming both."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack
from tests.support.account import leftovers

SSH = alto.FirewallInlineRuleArgs(protocol="tcp", start_port="22", cidr=["10.0.0.0/8"])


def _rules(emulator: Emulator) -> list[tuple[str, str, str]]:
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        (firewall,) = client.firewalls.list()
        return sorted(
            (str(r.direction), str(r.protocol), str(r.ports or ""))
            for r in client.firewall_rules.list(firewall.id)
        )


def test_a_migrated_firewall_keeps_its_inline_rule_blocks(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, engine_kind: str
) -> None:
    def program() -> None:
        network = alto.Network("app", cidr_v4="10.9.0.0/24")
        alto.Firewall(
            "edge",
            network_id=network.id,
            create_default_rules=False,
            ingress_rule=[SSH, {"protocol": "icmp"}],
            egress_rule=[{"protocol": "udp", "start_port": "53", "label": "dns"}],
        )

    stack = make_stack(program, engine=engine_kind)
    result = stack.up()
    assert result.operations == {"Network:app": "create", "Firewall:edge": "create"}
    assert _rules(fresh_emulator) == [
        ("egress", "udp", "53"),
        ("ingress", "icmp", ""),
        ("ingress", "tcp", "22"),
    ]
    assert stack.up().expect_no_changes
    assert stack.refresh().expect_no_changes
    stack.destroy()
    assert leftovers(fresh_emulator) == {}


def test_a_firewall_rule_on_a_firewall_with_inline_rules_is_refused_naming_both(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, engine_kind: str
) -> None:
    def program() -> None:
        edge = alto.Firewall("edge", create_default_rules=False, ingress_rules=[SSH])
        alto.FirewallRule("web", firewall_id=edge.id.apply(str), protocol="tcp", start_port="443")

    with pytest.raises(DeploymentFailed) as failed:
        make_stack(program, engine=engine_kind).up()
    message = "\n".join(failed.value.result.failures)
    assert "FirewallRule 'web' cannot be added to Firewall 'edge'" in message
    assert "manages its rules inline" in message
    assert _rules(fresh_emulator) == [("ingress", "tcp", "22")]


def test_firewall_rules_on_a_firewall_without_inline_rules_are_taken(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    def program() -> None:
        edge = alto.Firewall("edge", create_default_rules=False)
        alto.FirewallRule("web", firewall_id=edge.id, protocol="tcp", start_port="443")

    make_stack(program).up()
    assert _rules(fresh_emulator) == [("ingress", "tcp", "443")]
