"""The tested-web-tier example's own tests pass, run as its README says (``pytest tests``)."""

from __future__ import annotations

import subprocess
import sys

from account import EXAMPLES


def test_the_examples_own_tests_pass() -> None:
    project = EXAMPLES / "tested-web-tier"
    answer = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", ".", "tests"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert "4 passed" in answer.stdout.splitlines()[-1], answer.stdout
