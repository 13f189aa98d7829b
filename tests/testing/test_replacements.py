"""Replacements as the engine makes them, through the real provider process and the emulator."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack, StepEvent
from tests.support.account import leftovers


def done(events: list[StepEvent]) -> list[tuple[str, str]]:
    """The provider calls that changed something, in order: (operation, ``<Type>:<name>``)."""
    return [
        (e.op, f"{e.type.rpartition(':')[2]}:{e.name}")
        for e in events
        if e.status == "done" and e.op not in ("check", "diff", "refresh", "read")
    ]


def test_a_changed_network_replaces_the_private_network_with_nothing_left_behind(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    events: list[StepEvent] = []
    stack = make_stack("private-network", on_event=events.append)
    first = stack.up().output_values()

    stack.set_config("cidr", "10.40.0.0/24")
    announced = stack.preview().changed()
    events.clear()
    changed = stack.up()

    replaced = {
        "Network:app": "replace",
        "Firewall:app": "replace",
        "FirewallRule:ssh": "replace",
        "FirewallRule:https": "replace",
    }
    assert announced == changed.changed() == replaced
    assert changed.output_values()["network_cidr"] == "10.40.0.0/24"
    assert changed.output_values()["network_id"] != first["network_id"]
    # Every replacement is created first; the old ones go at the end, dependents first.
    order = done(events)
    creates = [step for step in order if step[0] == "create-replacement"]
    deletes = [step for step in order if step[0] == "delete-replaced"]
    assert order == creates + deletes
    assert sorted(deletes[:2]) == [
        ("delete-replaced", "FirewallRule:https"),
        ("delete-replaced", "FirewallRule:ssh"),
    ]
    assert deletes[2:] == [("delete-replaced", "Firewall:app"), ("delete-replaced", "Network:app")]
    assert leftovers(fresh_emulator) == {"networks": 1, "firewalls": 1, "firewall_rules": 2}

    stack.destroy()
    assert leftovers(fresh_emulator) == {}


def test_a_changed_network_moves_the_reserved_address_to_the_new_balancer(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    stack = make_stack("load-balancer")
    first = stack.up().output_values()

    stack.set_config("cidr", "10.31.0.0/24")
    announced = stack.preview().changed()
    changed = stack.up()

    expected = {
        "Network:web": "replace",
        "LoadBalancer:web": "replace",
        "ReservedIp:web": "update",
    }
    assert announced == changed.changed() == expected
    outputs = changed.output_values()
    assert outputs["public_ip"] == first["public_ip"]
    assert outputs["load_balancer_id"] != first["load_balancer_id"]
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        (listed,) = client.reserved_ips.list()
        address = client.reserved_ips.get(listed.id)
        (balancer,) = client.load_balancers.list()
    assert address.assigned_to is not None
    assert address.assigned_to.id == balancer.id == outputs["load_balancer_id"]
    # The balancer's own firewall (opening its backends' port) came and went with each balancer.
    assert leftovers(fresh_emulator) == {
        "networks": 1,
        "load_balancers": 1,
        "reserved_ips": 1,
        "firewalls": 1,
        "firewall_rules": 1,
    }

    stack.destroy()
    assert leftovers(fresh_emulator) == {}


def fixed_name_firewall() -> None:
    """A firewall with a name of its own: replacing it must delete it first."""
    cidr = pulumi.Config().get("cidr") or "10.50.0.0/24"
    network = alto.Network("net", cidr_v4=cidr)
    firewall = alto.Firewall("edge", name="edge", network_id=network.id, create_default_rules=False)
    alto.FirewallRule(
        "https",
        firewall_id=firewall.id,
        protocol="tcp",
        start_port="443",
        cidr=["0.0.0.0/0"],
        direction="ingress",
        action="allow",
    )


def test_delete_before_replace_deletes_the_dependents_first(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    events: list[StepEvent] = []
    stack = make_stack(fixed_name_firewall, on_event=events.append)
    stack.up()

    stack.set_config("cidr", "10.51.0.0/24")
    events.clear()
    changed = stack.up()

    assert changed.changed() == {
        "Network:net": "replace",
        "Firewall:edge": "replace",
        "FirewallRule:https": "replace",
    }
    assert done(events) == [
        ("create-replacement", "Network:net"),
        # The rule would be replaced with its firewall: deleted before it.
        ("delete-replaced", "FirewallRule:https"),
        ("delete-replaced", "Firewall:edge"),
        ("create-replacement", "Firewall:edge"),
        ("create-replacement", "FirewallRule:https"),
        ("delete-replaced", "Network:net"),  # create-before-delete: the old network goes last
    ]
    assert leftovers(fresh_emulator) == {"networks": 1, "firewalls": 1, "firewall_rules": 1}
    stack.destroy()
    assert leftovers(fresh_emulator) == {}


def test_a_failed_replacement_keeps_the_old_resource(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    """The old network is marked for deletion only once its replacement exists
    (``CreateStep.Apply``): after a failed create, reverting the program changes nothing."""

    def program() -> None:
        alto.Network("app", cidr_v4=pulumi.Config().get("cidr") or "10.52.0.0/24")

    stack = make_stack(program)
    first = stack.up().resources["Network:app"]

    stack.set_config("cidr", "10.53.0.0/24")
    fresh_emulator.app.faults.add(method="POST", path_prefix="/v2/vpc", status=400)
    with pytest.raises(DeploymentFailed, match="create-replacement failed"):
        stack.up()
    (kept,) = stack.state.resources
    assert (kept.id, kept.delete) == (first.id, False)

    stack.remove_config("cidr")
    again = stack.up()
    assert again.operations == {"Network:app": "same"}
    assert again.resources["Network:app"].id == first.id
    assert leftovers(fresh_emulator) == {"networks": 1}
