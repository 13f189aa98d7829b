"""What a failing create shows under the real engine: one line, the traceback only on asking."""

from __future__ import annotations

from pathlib import Path

import pytest

from altostratus.emulator import Emulator
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

PROGRAM = """\
import altostratus as alto

alto.Network("app", cidr_v4="10.46.0.0/24")
"""


def failing_project(tmp_path: Path, emulator: Emulator, **config: str) -> Project:
    source = tmp_path / "source" / "refused"
    source.mkdir(parents=True)
    (source / "Pulumi.yaml").write_text(
        "name: refused\nruntime:\n  name: python\n  options:\n    toolchain: pip\n"
        "    virtualenv: venv\n"
    )
    (source / "__main__.py").write_text(PROGRAM)
    project = Project(source, tmp_path / "work", emulator)
    project.init(config=config)
    emulator.app.faults.add(method="POST", path_prefix="/v2/vpc", status=400)
    return project


def error_lines(output: str) -> list[str]:
    """The lines under the resource's ``error:`` in the engine's diagnostics."""
    lines = output.splitlines()
    start = lines.index("  pulumi-python:dynamic/altostratus:Network (app):") + 1
    block = []
    for line in lines[start:]:
        if not line.strip():
            break
        block.append(line.strip())
    return block


def test_a_refused_create_is_one_line_under_the_engine(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    project = failing_project(tmp_path, fresh_emulator)
    output = project("up", "--yes", "--skip-preview", ok=False)
    assert "Traceback" not in output
    (line,) = error_lines(output)
    assert line.startswith("error: altostratus.ProviderError: ")
    assert "could not create network 'app': 400 injected_fault: " in line
    assert "(POST /v2/vpc/networks)" in line and "(POST /v2/vpc/networks)" in line


def test_the_traceback_is_shown_under_altostratus_debug(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    project = failing_project(tmp_path, fresh_emulator, **{"altostratus:debug": "true"})
    output = project("up", "--yes", "--skip-preview", ok=False)
    assert "Traceback (most recent call last)" in output
    assert "could not create network 'app': 400 injected_fault" in output
