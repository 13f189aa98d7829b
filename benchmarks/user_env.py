"""An environment as a user's: the project installed from its checkout with its own dependencies
only (``pip install .``, no extras, no development tools), at the versions this environment
has, bytecode compiled as pip leaves it.

The development environment holds more than a user's does, and some of it costs every provider
process: httpx imports its command-line module when click, rich and pygments are installed (they
come with the development tools here, not with altostratus), about 50 ms per process. Section 17
runs its programs and plugins in this environment so that a figure is what a user pays.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from benchmarks.servers import ROOT

#: Held at this environment's versions, so that both sides of a comparison run the same ones.
PINNED = ("pulumi", "grpcio", "protobuf", "httpx", "httpcore", "h11", "pydantic", "pydantic-core")


class UserEnvironment:
    """A virtual environment in a temporary folder, removed by ``close``."""

    def __init__(self, extra: tuple[str, ...] = ()) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="user-env-")
        self.prefix = Path(self._folder.name) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(self.prefix)], check=True)
        pins = [f"{name}=={metadata.version(name)}" for name in PINNED]
        installed = subprocess.run(
            [str(self.python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             str(ROOT), *pins, *extra],
            capture_output=True, text=True, timeout=900,
        )  # fmt: skip
        if installed.returncode != 0:
            self.close()
            failure = installed.stderr[-2000:]
            raise RuntimeError(f"the user's environment cannot be made:\n{failure}")

    @property
    def python(self) -> Path:
        return self.prefix / "bin" / "python"

    @property
    def scripts(self) -> Path:
        return self.prefix / "bin"

    def packages(self) -> list[str]:
        """``name==version`` of everything installed, sorted."""
        listed = subprocess.run(
            [str(self.python), "-m", "pip", "list", "--format=freeze",
             "--disable-pip-version-check"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return sorted(line for line in listed.stdout.splitlines() if line.strip())

    def close(self) -> None:
        self._folder.cleanup()

    def __enter__(self) -> UserEnvironment:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
