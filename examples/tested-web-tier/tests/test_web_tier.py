"""What this program promises, checked offline against the emulator in a few seconds."""

from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.testing import DeploymentFailed

PROJECT = Path(__file__).resolve().parents[1]


def test_the_address_is_the_balancers_and_only_https_is_open(altostratus_stack):
    stack = altostratus_stack(PROJECT)
    result = stack.up()

    address = result.resources["ReservedIp:web"]
    assert address.inputs["assign_to_id"] == result.resources["LoadBalancer:web"].id
    assert result.outputs["public_ip"].value == address.outputs["ip"]
    rules = [r for r in result.resources.values() if r.type.endswith(":FirewallRule")]
    assert [(r.inputs["protocol"], r.inputs["start_port"]) for r in rules] == [("tcp", "443")]


def test_a_port_out_of_range_is_refused_before_anything_is_made(altostratus_stack):
    stack = altostratus_stack(PROJECT, config={"httpsPort": "99999"})
    with pytest.raises(DeploymentFailed) as failed:
        stack.preview()
    (failure,) = failed.value.check_failures
    assert (failure.resource, failure.property) == ("FirewallRule:https", "start_port")


def test_a_new_range_replaces_the_tier_but_keeps_the_address(altostratus_stack):
    stack = altostratus_stack(PROJECT)
    before = stack.up().outputs["public_ip"].value

    stack.set_config("cidr", "10.71.0.0/24")
    assert stack.preview().changed() == {
        "Network:web": "replace",
        "Firewall:web": "replace",
        "FirewallRule:https": "replace",
        "LoadBalancer:web": "replace",
        "ReservedIp:web": "update",
    }
    assert stack.up().outputs["public_ip"].value == before


def test_it_builds_on_the_network_stack_it_is_given(altostratus_stack, altostratus_fresh_emulator):
    emulator = altostratus_fresh_emulator
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        shared = client.networks.create(label="shared", cidr_v4="10.80.0.0/24")
    stack = altostratus_stack(
        PROJECT,
        config={"networkStack": "organization/network/prod"},
        references={"organization/network/prod": {"network_id": shared.id}},
    )
    result = stack.up()

    assert "Network:web" not in result.resources
    assert result.resources["LoadBalancer:web"].inputs["network_id"] == shared.id
    assert result.outputs["network_id"].value == shared.id
