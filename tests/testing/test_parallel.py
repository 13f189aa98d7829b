"""``parallel`` bounds the steps of every operation, ``up`` included, as ``--parallel`` does."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

import altostratus as alto
from altostratus.emulator import Emulator
from altostratus.testing import Stack, StepEvent

NETWORKS = 6


def networks() -> None:
    for index in range(NETWORKS):
        alto.Network(f"n{index}", cidr_v4=f"10.80.{index}.0/24")


class Running:
    """The most steps of one kind seen running at once, from the step events."""

    def __init__(self, op: str) -> None:
        self.op = op
        self.now = 0
        self.most = 0
        self._lock = threading.Lock()

    def __call__(self, event: StepEvent) -> None:
        if event.op != self.op:
            return
        with self._lock:
            self.now += 1 if event.status == "started" else -1
            self.most = max(self.most, self.now)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("parallel", [1, 2])
def test_up_and_destroy_run_at_most_parallel_steps_at_once(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, engine_kind: str, parallel: int
) -> None:
    # Each create and delete is held by the service, so every step the bound lets through
    # overlaps the others.
    fresh_emulator.add_fault(method="POST", path_prefix="/v2/vpc/networks", delay_seconds=0.3,
                             count=NETWORKS)  # fmt: skip
    creates, deletes = Running("create"), Running("delete")

    def both(event: StepEvent) -> None:
        creates(event)
        deletes(event)

    stack = make_stack(networks, engine=engine_kind, parallel=parallel, on_event=both)
    stack.up()
    fresh_emulator.add_fault(method="DELETE", path_prefix="/v2/vpc/networks", delay_seconds=0.3,
                             count=NETWORKS)  # fmt: skip
    stack.destroy()
    assert creates.most == parallel
    assert deletes.most == parallel


def test_a_parallel_below_one_is_refused(make_stack: Callable[..., Stack]) -> None:
    with pytest.raises(ValueError, match="parallel must be at least 1"):
        make_stack(networks, parallel=0)
