"""The emulator and the `altostratus_stack` fixture come from altostratus's pytest plugin."""

from typing import Any

import pytest

pytest_plugins = ["altostratus.testing.pytest_plugin"]


@pytest.fixture(scope="session")
def altostratus_emulator_settings() -> dict[str, Any]:
    # Balancers and stores are ready in a fraction of a second instead of seconds.
    return {"lb_ready_seconds": 0.2, "objectstore_ready_seconds": 0.1}
