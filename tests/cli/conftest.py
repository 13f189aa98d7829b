"""The command-line client's tests: a configuration folder of the test's own, and the client
pointed at the freshly reset emulator."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from altostratus.emulator import Emulator


@pytest.fixture
def cli_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No credentials anywhere but where a test puts them: the client's configuration folder
    (``CLI_CONFIG_DIR``, not made yet), no ``ALTOSTRATUS_*`` or ``CLI_*`` variable, and nothing
    on standard input."""
    for name in list(os.environ):
        if name.startswith(("ALTOSTRATUS_", "CLI_")):
            monkeypatch.delenv(name)
    folder = tmp_path / "cli"
    monkeypatch.setenv("CLI_CONFIG_DIR", str(folder))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    return folder


@pytest.fixture
def cli_env(cli_home: Path, fresh_emulator: Emulator, monkeypatch: pytest.MonkeyPatch) -> Emulator:
    """``cli_home``, with the client's address and key those of the freshly reset emulator and
    its organization ``default``; the emulator."""
    monkeypatch.setenv("CLI_API_URL", fresh_emulator.api_url)
    monkeypatch.setenv("CLI_API_KEY", fresh_emulator.api_key)
    monkeypatch.setenv("CLI_ORG", "default")
    return fresh_emulator
