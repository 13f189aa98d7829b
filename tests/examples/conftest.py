"""Fixtures for running the example programs through their whole life with altostratus.testing."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from account import EXAMPLES

from altostratus.emulator import Emulator
from altostratus.testing import ProviderProcesses, Stack


@pytest.fixture(scope="module")
def provider_processes() -> Iterator[ProviderProcesses]:
    processes = ProviderProcesses()
    yield processes
    processes.close()


@pytest.fixture
def stack_factory(
    provider_processes: ProviderProcesses, fresh_emulator: Emulator
) -> Callable[..., Stack]:
    """A stack of an example (its directory's name), against a freshly reset emulator."""

    def make(example: str, config: dict[str, str] | None = None) -> Stack:
        return Stack(
            EXAMPLES / example,
            emulator=fresh_emulator,
            config=config,
            stack="dev",
            processes=provider_processes,
        )

    return make
