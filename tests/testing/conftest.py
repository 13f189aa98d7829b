"""Stacks of the engine stand-in's tests: the public ``altostratus_stack`` fixture, by name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from altostratus.testing import Stack

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def make_stack(altostratus_stack: Callable[..., Stack]) -> Callable[..., Stack]:
    """A stack of a program (a function, or an example's name) against the fresh emulator."""

    def make(program: Callable[[], None] | str, **options: Any) -> Stack:
        source = EXAMPLES / program if isinstance(program, str) else program
        return altostratus_stack(source, **options)

    return make


@pytest.fixture(
    params=[
        "runner",
        pytest.param("pulumi", marks=pytest.mark.real_engine),
    ]
)
def engine(request: pytest.FixtureRequest) -> str:
    """Each engine a test compares: the runner, and the real one where it is built."""
    return str(request.param)
