"""Fresh interpreters, as a user's commands start them: bytecode cached as in a normal install
(where the installer compiles it), under a temporary prefix, so that nothing is written beside
the sources whatever the environment says. A first run of each command writes the caches."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.measure import timed


class Interpreters:
    def __init__(self, cwd: Path | None = None) -> None:
        self._cache = tempfile.TemporaryDirectory(prefix="bytecode-")
        self.cwd = cwd
        self.environ = {
            **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
            "PYTHONPYCACHEPREFIX": self._cache.name,
        }

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``python ARGS``, which must succeed; its output captured."""
        return subprocess.run(
            [sys.executable, *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=timeout,
            env=self.environ,
            cwd=self.cwd,
        )

    def timed(self, *args: str) -> float:
        """The wall time of ``python ARGS``, from start to exit."""
        return timed(lambda: self.run(*args))

    def close(self) -> None:
        self._cache.cleanup()

    def __enter__(self) -> Interpreters:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
