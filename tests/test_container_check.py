"""``tools/container/check`` where Docker is missing: one line saying so and the status that
``.ci/run`` reports as "not present", never a failure."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_without_docker_the_check_says_not_present(tmp_path: Path) -> None:
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    for command in ("bash", "env", "dirname"):
        found = shutil.which(command)
        assert found is not None
        (bin_folder / command).symlink_to(found)
    answer = subprocess.run(
        [str(ROOT / "tools" / "container" / "check")],
        env={**os.environ, "PATH": str(bin_folder), "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (answer.returncode, answer.stdout) == (3, "not present: docker is not installed\n")
    ci = (ROOT / ".ci" / "run").read_text()
    assert '3) record "the emulator\'s image (tools/container/check)" "not present' in ci
