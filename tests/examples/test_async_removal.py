"""``destroy`` in one pass against a service whose removals take time: each delete waits until
its resource is gone, so the network deleted last is no longer held by its firewall or load
balancer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from altostratus.emulator import Emulator
from altostratus.testing import ProviderProcesses, Stack
from tests.support.account import EXAMPLES, leftovers


@pytest.fixture(scope="module")
def slow_removal() -> Iterator[Emulator]:
    """An emulator whose deleted resources stay in their deleting state for half a second."""
    settings = {"lb_ready_seconds": 0.2, "objectstore_ready_seconds": 0.1, "delete_seconds": 0.5}
    with Emulator(**settings) as emulator:
        yield emulator


@pytest.mark.parametrize("example", ["private-network", "load-balancer"])
def test_an_example_is_destroyed_in_one_pass_when_removal_takes_time(
    slow_removal: Emulator, altostratus_provider_processes: ProviderProcesses, example: str
) -> None:
    slow_removal.reset()
    stack = Stack(
        EXAMPLES / example,
        stack="dev",
        emulator=slow_removal,
        processes=altostratus_provider_processes,
    )
    try:
        assert set(stack.up().operations.values()) == {"create"}
        stack.destroy()
        assert stack.state.resources == []
        assert leftovers(slow_removal) == {}
    finally:
        stack.close()
