"""Fixtures for running the example programs through their whole life with altostratus.testing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from altostratus.testing import Stack
from tests.support.account import EXAMPLES


@pytest.fixture
def stack_factory(altostratus_stack: Callable[..., Stack]) -> Callable[..., Stack]:
    """A stack of an example (its directory's name), against a freshly reset emulator."""

    def make(example: str, config: dict[str, str] | None = None) -> Stack:
        return altostratus_stack(EXAMPLES / example, config=config, stack="dev")

    return make
