"""The tested-web-tier example's own tests pass, run as its README says (``pytest tests``):
through altostratus's runner, and through the real engine where the ``pulumi`` CLI is."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support.account import EXAMPLES


@pytest.mark.parametrize(
    "engine",
    [
        # The example's own pytest session in a process of its own: about 6 s on two cores.
        pytest.param("runner", marks=pytest.mark.slow),
        pytest.param(
            "pulumi",
            marks=[
                pytest.mark.real_engine,
                pytest.mark.slow,
                pytest.mark.timeout(600),  # the CLI starts a process per command
            ],
        ),
    ],
)
def test_the_examples_own_tests_pass(engine: str) -> None:
    project = EXAMPLES / "tested-web-tier"
    answer = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", ".", "tests"],
        cwd=project,
        env={**os.environ, "ALTOSTRATUS_TESTING_ENGINE": engine},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert "4 passed" in answer.stdout.splitlines()[-1], answer.stdout
