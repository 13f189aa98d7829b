"""A program that fails while its steps are running: what they made is kept, then destroyed."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest
from account import leftovers

import altostratus as alto
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack


def network_then_a_missing_reference() -> None:
    alto.Network("app")
    pulumi.StackReference("organization/nowhere/dev")


def test_a_create_still_running_when_the_program_fails_is_kept_in_the_state(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    # The network's create answers after the program has already failed on its reference.
    fresh_emulator.app.faults.add(method="POST", path_prefix="/v2/vpc", delay_seconds=0.5)
    stack = make_stack(network_then_a_missing_reference)

    with pytest.raises(DeploymentFailed, match="organization/nowhere/dev"):
        stack.up()

    assert [res.name for res in stack.state.resources] == ["app"]
    assert leftovers(fresh_emulator) == {"networks": 1}
    stack.destroy()
    assert leftovers(fresh_emulator) == {}
