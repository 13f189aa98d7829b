"""The engines the engine stand-in's tests compare."""

from __future__ import annotations

import pytest


@pytest.fixture(
    params=[
        "runner",
        pytest.param("pulumi", marks=pytest.mark.real_engine),
    ]
)
def engine_kind(request: pytest.FixtureRequest) -> str:
    """Each engine a test compares: the runner, and the real one where it is built."""
    return str(request.param)
