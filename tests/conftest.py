from __future__ import annotations

from typing import Any

import pytest

from altostratus.emulator import Emulator

pytest_plugins = ["altostratus.testing.pytest_plugin"]


@pytest.fixture(scope="session")
def altostratus_emulator_settings() -> dict[str, Any]:
    return {"lb_ready_seconds": 0.2, "objectstore_ready_seconds": 0.1}


@pytest.fixture(scope="session")
def emulator(altostratus_emulator: Emulator) -> Emulator:
    """The session's started emulator."""
    return altostratus_emulator


@pytest.fixture
def fresh_emulator(emulator: Emulator) -> Emulator:
    """The session's emulator, reset before the test."""
    emulator.reset()
    return emulator
