"""A firewall's ``create_default_rules`` counts at creation only (the API cannot change it): a
later change shows no difference, replaces neither the firewall nor a balancer using it, and the
state keeps the value the firewall was made with."""

from __future__ import annotations

import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers.firewall import FirewallProvider
from altostratus.testing import Stack
from tests.support.engine import Engine

from .scenarios import BACKEND


def test_a_change_shows_no_difference_and_keeps_the_created_value(
    configured_client: Client, provider_engine: Engine
) -> None:
    network = configured_client.networks.create(label="app", cidr_v4="10.72.0.0/24")
    inputs = {"network_id": network.id, "create_default_rules": False}
    made = provider_engine.up(FirewallProvider(), "fw", inputs, None)

    flipped = provider_engine.up(
        FirewallProvider(), "fw", {**inputs, "create_default_rules": True}, made.state
    )
    assert flipped.operation == "same"
    assert flipped.diff is not None and flipped.diff.replaces == []
    assert configured_client.firewall_rules.list(made.state.id) == []

    renamed = {**inputs, "create_default_rules": True, "name": "edge"}
    updated = provider_engine.up(FirewallProvider(), "fw", renamed, made.state)
    assert updated.operation == "update"
    assert updated.state.outputs["create_default_rules"] is False
    assert configured_client.firewalls.get(made.state.id).name == "edge"


@pytest.mark.parametrize("first", [True, False])
def test_a_stack_changing_it_replaces_nothing(fresh_emulator: Emulator, first: bool) -> None:
    setting = {"default_rules": first}

    def program() -> None:
        network = alto.Network("app", label="app", cidr_v4="10.20.0.0/24")
        firewall = alto.Firewall(
            "fw", network_id=network.id, create_default_rules=setting["default_rules"]
        )
        alto.LoadBalancer("web", network_id=network.id, firewall_id=firewall.id, backends=[BACKEND])

    with Stack(program, emulator=fresh_emulator) as stack:
        stack.up()
        setting["default_rules"] = not first
        assert stack.preview().changed() == {}
        assert stack.up().changed() == {}
        with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
            (firewall,) = client.firewalls.list()
            assert len(firewall.rules or []) == (3 if first else 0)
        stack.destroy()
