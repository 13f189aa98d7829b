from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.nodejs import node_modules


@pytest.fixture(scope="session")
def typescript_modules() -> Path:
    """The TypeScript programs' node_modules (the SDK, @pulumi/pulumi, TypeScript), installed
    once and shared by every worker and session."""
    return node_modules()
