"""A deployment that fails: steps already running finish and are kept, no other step starts."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack, StepEvent
from tests.support.account import leftovers


def once(event: threading.Event, value: str) -> pulumi.Output[str]:
    """``value``, known only once ``event`` is set (waited for off the program's event loop)."""

    async def wait() -> str:
        await asyncio.get_running_loop().run_in_executor(None, event.wait, 10)
        return value

    return pulumi.Output.from_input(wait())


def test_a_create_still_running_when_a_step_fails_is_kept_in_the_state(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    creating = threading.Event()

    def on_event(event: StepEvent) -> None:
        if (event.op, event.status) == ("create", "started"):
            creating.set()

    def program() -> None:
        alto.Network("app")
        # The reference is read, and fails, while the network's create is under way.
        once(creating, "organization/nowhere/dev").apply(
            lambda name: pulumi.StackReference("other", stack_name=name)
        )

    # The network's create answers after the reference has already failed.
    fresh_emulator.app.faults.add(method="POST", path_prefix="/v2/vpc", delay_seconds=0.5)
    stack = make_stack(program, on_event=on_event)

    with pytest.raises(DeploymentFailed, match="organization/nowhere/dev"):
        stack.up()

    assert [res.name for res in stack.state.resources] == ["app"]
    assert leftovers(fresh_emulator) == {"networks": 1}
    stack.destroy()
    assert leftovers(fresh_emulator) == {}


def test_after_a_failed_step_no_other_step_starts(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    refused = threading.Event()
    events: list[StepEvent] = []

    def on_event(event: StepEvent) -> None:
        events.append(event)
        if event.status == "failed":
            refused.set()

    def program() -> None:
        alto.Network("bad", cidr_v4="10.0.0.0/33")
        # Declared once the check of the first has failed: the engine starts no step for it.
        alto.Network("late", label=once(refused, "late"), cidr_v4="10.63.0.0/24")

    with pytest.raises(DeploymentFailed) as failed:
        make_stack(program, on_event=on_event).up()

    assert failed.value.result.failures == [
        f"{failed.value.result.failures[0].split(': ')[0]}: check failed: "
        "cidr_v4: " + failed.value.check_failures[0].reason
    ]
    assert [(c.resource, c.property) for c in failed.value.check_failures] == [
        ("Network:bad", "cidr_v4")
    ]
    assert failed.value.result.resources == {}
    assert [e.name for e in events] == ["bad", "bad"]  # its check, started and failed
    assert leftovers(fresh_emulator) == {}
