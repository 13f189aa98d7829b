"""``refresh()``: each resource's operation as the engine reports it (``RefreshStep.ResultOp``),
and whether ``pulumi refresh --expect-no-changes`` would pass."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import Stack

NETWORK_REFERENCE = "organization/altostratus-private-network/dev"


@pytest.mark.parametrize(
    ("example", "config"),
    [
        ("private-network", {}),
        ("load-balancer", {}),
        ("object-storage", {}),
        ("webhooks", {"url": "http://127.0.0.1:9/a"}),
        ("tested-web-tier", {}),
        ("stack-composition", {"networkStack": NETWORK_REFERENCE}),
        ("default-network", {"networkStack": NETWORK_REFERENCE}),
    ],
)
def test_a_refresh_straight_after_up_changes_nothing(
    make_stack: Callable[..., Stack], example: str, config: dict[str, str], engine_kind: str
) -> None:
    # The network stack is deployed only for the examples that refer to it.
    network = None
    references = {}
    if NETWORK_REFERENCE in config.values():
        network = make_stack("private-network", stack="dev", engine=engine_kind)
        references[NETWORK_REFERENCE] = network.up().output_values()
    stack = make_stack(
        example, stack="dev", config=config, references=references, engine=engine_kind
    )
    stack.up()

    refreshed = stack.refresh()

    changed = refreshed.changed()
    if example == "default-network":
        # The firewall is read with ``get`` and the stack adds a rule to it afterwards: the
        # engine compares a read resource's outputs, and its rule count grew.
        assert changed == {"Firewall:platform-firewall": "update"}
        assert not refreshed.expect_no_changes
    else:
        assert changed == {}
        assert refreshed.expect_no_changes
    assert stack.up().changed() == {}
    stack.destroy()
    if network is not None:
        network.destroy()


def test_drift_counts_only_in_what_the_program_sets(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, engine_kind: str
) -> None:
    stack = make_stack("private-network", engine=engine_kind)
    result = stack.up()
    network, firewall = result.resources["Network:app"], result.resources["Firewall:app"]

    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        # A rule made by hand: the firewall's rule count grows, which the program does not set.
        client.firewall_rules.create(firewall.id, protocol="udp", start_port="53", cidr="0.0.0.0/0")
        refreshed = stack.refresh()
        assert refreshed.operations["Firewall:app"] == "same"
        assert refreshed.resources["Firewall:app"].outputs != firewall.outputs
        assert refreshed.expect_no_changes

        # A label changed by hand: the program sets it.
        client.networks.update(network.id, label="changed by hand")
        refreshed = stack.refresh()
    assert refreshed.changed() == {"Network:app": "update"}
    assert not refreshed.expect_no_changes
    # The next up puts the program's label back.
    assert stack.up().changed() == {"Network:app": "update"}
