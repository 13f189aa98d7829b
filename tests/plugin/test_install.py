"""``altostratus plugin install``: the plugin written into Pulumi's plugin folder, found there by
the real engine without PATH."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from altostratus._version import package_version
from altostratus.emulator import Emulator
from altostratus.plugin import names
from tests.plugin.test_engine_cycle import PROGRAMS
from tests.support.account import leftovers
from tests.support.pulumi_cli import Project

COMMAND = [sys.executable, "-m", "altostratus", "plugin", "install"]


def install(env: dict[str, str]) -> Path:
    answer = subprocess.run(COMMAND, env=env, capture_output=True, text=True, timeout=60)
    assert answer.returncode == 0, answer.stderr
    folder = Path(env["PULUMI_HOME"]) / "plugins" / f"resource-altostratus-v{package_version()}"
    script = folder / "pulumi-resource-altostratus"
    assert (
        answer.stdout
        == f"installed the altostratus provider plugin {package_version()} at {script}\n"
    )
    return script


def test_the_installed_plugin_starts_and_prints_its_port(tmp_path: Path) -> None:
    script = install({**os.environ, "PULUMI_HOME": str(tmp_path)})
    process = subprocess.Popen([str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip().isdigit()
    finally:
        process.kill()
        process.wait()


@pytest.mark.real_engine
@pytest.mark.timeout(600)
def test_the_engine_finds_the_installed_plugin_without_path(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    project = Project(PROGRAMS / "all-kinds", tmp_path, fresh_emulator)
    project.env["PULUMI_IGNORE_AMBIENT_PLUGINS"] = "true"
    project.init()
    project("config", "set", "--secret", "hookSecret", "hook-secret-text-1")
    failed = project("preview", ok=False)
    assert "pulumi-resource-altostratus" in failed
    install(project.env)
    # The CLI finds the package by name there (gen-sdk, get-schema), not only on PATH.
    served = json.loads(project("package", "get-schema", "altostratus"))
    assert served["version"] == package_version()
    assert set(served["resources"]) == set(names.schema()["resources"])
    shown = project("up", "--yes")
    assert "from $PATH" not in shown
    project("destroy", "--yes", "--skip-preview")
    assert leftovers(fresh_emulator) == {}


@pytest.mark.real_engine
@pytest.mark.timeout(600)
def test_a_plugin_missing_a_dependency_names_the_install_command_under_the_engine(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    """The plugin's environment lacks gRPC (a module that fails to import stands for it): the
    engine shows the plugin's one line, which names the command that installs it."""
    broken = tmp_path / "broken" / "grpc"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError(\"No module named 'grpc'\")\n")
    scripts = tmp_path / "bin"
    scripts.mkdir()
    plugin = scripts / "pulumi-resource-altostratus"
    plugin.write_text(
        "#!/bin/sh\n"
        f'PYTHONPATH={broken.parent} exec {sys.executable} -m altostratus._plugin_launch "$@"\n'
    )
    plugin.chmod(0o755)
    project = Project(PROGRAMS / "all-kinds", tmp_path, fresh_emulator)
    project.env["PATH"] = f"{scripts}{os.pathsep}{project.env['PATH']}"
    project.init()
    project("config", "set", "--secret", "hookSecret", "hook-secret-text-1")
    failed = project("preview", ok=False)
    assert (
        "error: the altostratus provider plugin cannot start (No module named 'grpc'): install "
        f"it and its dependencies in the environment of {sys.executable} with: "
        'python -m pip install --upgrade "altostratus"'
    ) in failed


def test_the_plugin_ends_when_its_engine_goes() -> None:
    """Nobody reads the plugin's output any more (its engine was killed): it ends, configured
    or not."""
    script = Path(sys.executable).parent / "pulumi-resource-altostratus"
    process = subprocess.Popen([str(script)], stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip().isdigit()
        process.stdout.close()
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
