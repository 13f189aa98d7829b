"""``pulumi preview`` of whole programs: check and diff with unknowns, nothing made or changed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from altostratus.emulator import Emulator
from altostratus.testing import Stack, StepEvent
from tests.support.account import leftovers

NETWORK_REFERENCE = "organization/altostratus-private-network/dev"
REFERENCED = {"network_id": "3f0d8a44-0000-4000-8000-000000000001", "network_cidr": "10.20.0.0/24"}


@pytest.mark.parametrize(
    "example",
    [
        "private-network",
        "load-balancer",
        "object-storage",
        "webhooks",
        "stack-composition",
        "tested-web-tier",
    ],
)
def test_every_example_previews_as_creates_and_makes_nothing(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, example: str
) -> None:
    events: list[StepEvent] = []
    stack = make_stack(
        example,
        config={"networkStack": NETWORK_REFERENCE},
        references={NETWORK_REFERENCE: REFERENCED},
        on_event=events.append,
    )
    # (default-network reads another stack's firewall: its preview, a read and creates, is in
    # tests/examples/test_examples.py.)
    preview = stack.preview()
    assert preview.failures == []
    assert preview.operations and set(preview.operations.values()) == {"create"}
    # Only checks ran: no create, and nothing in the account or in the state.
    assert {e.op for e in events} == {"check"}
    assert all(e.preview for e in events)
    assert leftovers(fresh_emulator) == {}
    assert stack.state.resources == []


def test_a_preview_announces_what_the_following_up_does(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    stack = make_stack("object-storage")
    stack.up()
    stack.set_config("sizeGb", "250")
    before = stack.state.copy()

    announced = stack.preview()
    assert stack.state == before
    done = stack.up()
    assert announced.operations == done.operations
    assert announced.changed() == {"ObjectStore:assets": "update"}
    # The engine previews an update of a dynamic resource with its inputs as its outputs: the
    # bucket name is not an input, so the preview does not know it.
    assert announced.output_values()["bucket"] is None
    assert done.output_values()["bucket"]
