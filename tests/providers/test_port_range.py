"""``port_range`` ("80", "80-443"), as the Terraform provider's rule blocks write the ports, on a
``FirewallRule`` and on a firewall's inline rules, through the provider process: made as the
same ports, the same as ``start_port``/``end_port`` to a diff, and refused beside them."""

from __future__ import annotations

import pytest

from altostratus.client import Client
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.firewall_rule import FirewallRuleProvider
from altostratus.testing import CheckFailed
from tests.support.engine import Engine


def _firewall(api: Client) -> str:
    network = api.networks.create(label="app", cidr_v4="10.70.0.0/24")
    return api.firewalls.create(name="fw", network_id=network.id, create_default_rules=False).id


@pytest.mark.parametrize(("given", "ports"), [("80-443", ("80", "443")), ("22", ("22", "22"))])
def test_a_rule_with_a_port_range_is_made_with_those_ports(
    configured_client: Client, provider_engine: Engine, given: str, ports: tuple[str, str]
) -> None:
    firewall_id = _firewall(configured_client)
    inputs = {"firewall_id": firewall_id, "protocol": "tcp", "port_range": given}
    made = provider_engine.up(FirewallRuleProvider(), "web", inputs, None)

    (rule,) = configured_client.firewall_rules.list(firewall_id)
    assert (rule.start_port, rule.end_port or rule.start_port) == ports
    assert (made.state.outputs["start_port"], made.state.outputs["end_port"]) == ports
    assert provider_engine.up(FirewallRuleProvider(), "web", inputs, made.state).operation == "same"
    as_ports = {"firewall_id": firewall_id, "protocol": "tcp", "start_port": ports[0]}
    as_ports["end_port"] = ports[1]
    assert (
        provider_engine.up(FirewallRuleProvider(), "web", as_ports, made.state).operation == "same"
    )


@pytest.mark.parametrize(
    ("extra", "failure"),
    [
        (
            {"port_range": "80-443", "start_port": "80"},
            ("port_range", "port_range cannot be given with start_port or end_port: give one "
             "or the other"),
        ),
        (
            {"port_range": "443-80"},
            ("port_range", "port_range must not end below its start, not '443-80'"),
        ),
        (
            {"port_range": "http"},
            ("port_range", 'port_range must be a port or a range of ports 1 to 65535 ("80", '
             "\"80-443\"), not 'http'"),
        ),
    ],
    ids=["both", "reversed", "not-a-port"],
)  # fmt: skip
def test_a_bad_port_range_fails_the_check_naming_it(
    configured_client: Client,
    provider_engine: Engine,
    extra: dict[str, str],
    failure: tuple[str, str],
) -> None:
    inputs = {"firewall_id": "f1", "protocol": "tcp", **extra}
    with pytest.raises(CheckFailed) as failed:
        provider_engine.up(FirewallRuleProvider(), "web", inputs, None)
    assert failed.value.failures == [failure]


def test_inline_rules_take_a_port_range_and_refuse_it_beside_the_ports(
    configured_client: Client, provider_engine: Engine
) -> None:
    network = configured_client.networks.create(label="app", cidr_v4="10.71.0.0/24")
    ranged = {"protocol": "tcp", "port_range": "8000-8080", "label": "app"}
    inputs = {"network_id": network.id, "create_default_rules": False, "ingress_rules": [ranged]}
    made = provider_engine.up(FirewallProvider(), "fw", inputs, None)

    (rule,) = configured_client.firewall_rules.list(made.state.id)
    assert (rule.start_port, rule.end_port, rule.label) == ("8000", "8080", "app")
    assert provider_engine.up(FirewallProvider(), "fw", inputs, made.state).operation == "same"
    as_ports = {"protocol": "tcp", "start_port": "8000", "end_port": "8080", "label": "app"}
    same = {**inputs, "ingress_rules": [as_ports]}
    assert provider_engine.up(FirewallProvider(), "fw", same, made.state).operation == "same"

    both = {**inputs, "ingress_rules": [{**ranged, "start_port": "8000"}]}
    with pytest.raises(CheckFailed) as failed:
        provider_engine.up(FirewallProvider(), "fw", both, made.state)
    assert failed.value.failures == [
        (
            "ingress_rules",
            "ingress_rules [0] port_range cannot be given with start_port or end_port: give one "
            "or the other",
        )
    ]


def test_the_port_range_output_is_the_rules_range_whichever_form_was_given(
    configured_client: Client, provider_engine: Engine
) -> None:
    firewall_id = _firewall(configured_client)
    inputs = {"firewall_id": firewall_id, "protocol": "udp", "start_port": "53"}
    made = provider_engine.up(FirewallRuleProvider(), "dns", inputs, None)
    assert made.state.outputs["port_range"] == "53"
    ranged = {**inputs, "start_port": None, "port_range": "53-54"}
    updated = provider_engine.up(FirewallRuleProvider(), "dns", ranged, made.state)
    assert updated.operation == "update" and updated.state.outputs["port_range"] == "53-54"
    (rule,) = configured_client.firewall_rules.list(firewall_id)
    assert (rule.start_port, rule.end_port) == ("53", "54")


def test_an_imported_rule_gives_its_ports_once_and_a_refresh_keeps_both_forms(
    configured_client: Client,
) -> None:
    """An import reads a rule knowing only its firewall: its inputs (the code ``pulumi import``
    writes) give the ports as ``start_port``/``end_port``, not beside a ``port_range`` too,
    which the check refuses; a refresh's inputs stay what the outputs hold."""
    firewall_id = _firewall(configured_client)
    rule = configured_client.firewall_rules.create(
        firewall_id, protocol="tcp", start_port="80", end_port="443", cidr="10.0.0.0/8"
    )
    provider = FirewallRuleProvider()
    imported = provider.read(rule.id, {"firewall_id": firewall_id})
    assert imported.inputs is not None and imported.outs is not None
    assert "port_range" not in imported.inputs
    assert (imported.inputs["start_port"], imported.inputs["end_port"]) == ("80", "443")
    assert provider.check({}, imported.inputs).failures == []
    refreshed = provider.read(rule.id, imported.outs)
    assert refreshed.inputs is not None
    assert refreshed.inputs["port_range"] == "80-443"
