"""Fixtures of the engine stand-in's tests: stacks against a fresh emulator, shared processes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from altostratus.emulator import Emulator
from altostratus.testing import ProviderProcesses, Stack

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def processes() -> Iterator[ProviderProcesses]:
    shared = ProviderProcesses()
    yield shared
    shared.close()


@pytest.fixture
def make_stack(processes: ProviderProcesses, fresh_emulator: Emulator) -> Callable[..., Stack]:
    """A stack of a program (a function, or an example's name) against the fresh emulator."""

    def make(program: Callable[[], None] | str, **options: Any) -> Stack:
        source = EXAMPLES / program if isinstance(program, str) else program
        return Stack(source, emulator=fresh_emulator, processes=processes, **options)

    return make
