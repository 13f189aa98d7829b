"""Fixtures of the reliability tests: a provider process driven like the engine, and a client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.support.engine import Engine, ProviderProcess


def stack_config(emulator: Emulator) -> dict[str, str]:
    return {"altostratus:apiKey": emulator.api_key, "altostratus:apiUrl": emulator.api_url}


@pytest.fixture(scope="module")
def engine(emulator: Emulator) -> Iterator[Engine]:
    """A ``python -m pulumi.dynamic`` process configured with the stack config, per module."""
    process = ProviderProcess(stack_config(emulator))
    yield Engine(process)
    process.close()


@pytest.fixture
def api(fresh_emulator: Emulator) -> Iterator[Client]:
    """A client of a freshly reset emulator."""
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        yield client
