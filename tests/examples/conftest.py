"""Fixtures for running the example programs through their whole life."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from engine import Engine, ProviderProcess

from altostratus.emulator import Emulator

sys.path.insert(0, str(Path(__file__).parent))

from program import Stack


@pytest.fixture(scope="module")
def engine(emulator: Emulator) -> Iterator[Engine]:
    process = ProviderProcess(
        {"altostratus:apiKey": emulator.api_key, "altostratus:apiUrl": emulator.api_url}
    )
    yield Engine(process)
    process.close()


@pytest.fixture
def stack_factory(engine: Engine, fresh_emulator: Emulator) -> Callable[..., Stack]:
    def make(example: str, config: dict[str, str] | None = None) -> Stack:
        return Stack(engine, example, config)

    return make
