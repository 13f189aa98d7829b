"""The stand-in Python language host (``tools/engine/langhost``) under the real CLI: the code it
generates and the plugins and packages it runs and links. Every test here is ``real_engine``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest

Pulumi = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def pulumi(tmp_path: Path) -> Pulumi:
    """Runs the CLI with a home of its own and a local backend, from ``cwd`` (default tmp)."""

    def run(
        *args: str, cwd: Path = tmp_path, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        command = shutil.which("pulumi")
        assert command is not None
        (tmp_path / "state").mkdir(exist_ok=True)
        environment = {
            **os.environ,
            "PULUMI_HOME": str(tmp_path / "home"),
            "PULUMI_BACKEND_URL": (tmp_path / "state").as_uri(),
            "PULUMI_CONFIG_PASSPHRASE": "test-passphrase",
            "PULUMI_SKIP_UPDATE_CHECK": "true",
            **(env or {}),
        }
        return subprocess.run(
            [command, *args, "--non-interactive"],
            cwd=cwd,
            env=environment,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    return run


def offline_venv(folder: Path) -> Path:
    """A new virtual environment that sees this one's packages (pulumi, altostratus, pip,
    setuptools) through a ``.pth`` file, so what pip installs into it needs no index."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120
    )
    python = folder / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "parent.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


#: pip without the network: no index, and no isolated build environment to fetch setuptools
#: into (``PIP_NO_BUILD_ISOLATION`` is inverted: 0 turns the isolation off).
OFFLINE_PIP = {
    "PIP_NO_INDEX": "1",
    "PIP_NO_BUILD_ISOLATION": "0",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
}
