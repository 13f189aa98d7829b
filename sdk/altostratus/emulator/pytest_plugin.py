"""A pytest plugin that serves the emulator to a test session.

Load it from a ``conftest.py``::

    pytest_plugins = ["altostratus.emulator.pytest_plugin"]

``altostratus_emulator`` is one started ``Emulator`` for the session; ``altostratus_fresh_emulator``
resets it before a test. Override ``altostratus_emulator_settings`` (session scope) to pass other
``Emulator`` arguments, such as shorter provisioning delays.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from altostratus.emulator import Emulator


@pytest.fixture(scope="session")
def altostratus_emulator_settings() -> dict[str, Any]:
    """Keyword arguments for the session's ``Emulator``."""
    return {}


@pytest.fixture(scope="session")
def altostratus_emulator(altostratus_emulator_settings: dict[str, Any]) -> Iterator[Emulator]:
    with Emulator(**altostratus_emulator_settings) as emulator:
        yield emulator


@pytest.fixture
def altostratus_fresh_emulator(altostratus_emulator: Emulator) -> Emulator:
    altostratus_emulator.reset()
    return altostratus_emulator
