"""Fixtures of the tests on what exists outside the stack: a client of the fresh emulator's
account, beside the public ``altostratus_stack`` fixture."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import Stack


@pytest.fixture
def make_stack(altostratus_stack: Callable[..., Stack]) -> Callable[..., Stack]:
    return altostratus_stack


@pytest.fixture
def api(fresh_emulator: Emulator) -> Iterator[Client]:
    """A client of the fresh emulator's account: another team, or the console."""
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        yield client
