"""Fixtures of the migration tests: a client of the fresh emulator's account, and the stack
fixture."""

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
    """A client of the fresh emulator's account: the account the old tool managed."""
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        yield client
