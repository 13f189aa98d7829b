"""The generated programs, for each front end, as their users' tools see them: mypy in strict
mode, and ruff's lint and format (its defaults, as in a project with no configuration of its
own); and the two front ends' programs declare the same resources."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from altostratus.migrate import FRONT_ENDS, migrate, program_source, read_source

from .estates import placeholders, templated
from .hostile import declarations

ROOT = Path(__file__).parents[2]
FIXTURES = ("terraform-show.json", "pulumi-stack-export.json")


@pytest.fixture(scope="module")
def migrated_programs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Each fixture's program, as ``<fixture>.py`` (each is a ``__main__`` of its own)."""
    folder = tmp_path_factory.mktemp("migrated")
    for fixture in FIXTURES:
        values = {key: f"00000000-{number:04d}" for number, key in enumerate(placeholders(fixture))}
        migration = migrate(read_source(templated(fixture, values)))
        module = fixture.removesuffix(".json").replace("-", "_")
        for front_end in FRONT_ENDS:
            program = program_source(migration, "migration-report.md", front_end=front_end)
            (folder / f"{module}_{front_end}.py").write_text(program)
    return folder


def test_each_front_ends_program_declares_the_same_resources(migrated_programs: Path) -> None:
    for fixture in FIXTURES:
        module = fixture.removesuffix(".json").replace("-", "_")
        found = {
            front_end: declarations(
                (migrated_programs / f"{module}_{front_end}.py").read_text(), FRONT_ENDS[front_end]
            )
            for front_end in FRONT_ENDS
        }
        assert len(found["dynamic"]) >= 10
        assert found["plugin"] == found["dynamic"], fixture


def run(command: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600)


def test_the_programs_type_check_under_mypy_strict(migrated_programs: Path) -> None:
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    (migrated_programs / "mypy.ini").write_text("[mypy]\nstrict = True\n", encoding="utf-8")
    cache = Path(tempfile.gettempdir()) / f"altostratus-mypy-{checkout}"
    files = sorted(path.name for path in migrated_programs.glob("*.py"))
    mypy = [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", str(cache)]
    answer = run([*mypy, *files], migrated_programs)
    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert f"no issues found in {len(FIXTURES) * len(FRONT_ENDS)} source files" in answer.stdout


def test_the_programs_pass_ruffs_lint_and_format(migrated_programs: Path) -> None:
    ruff = [sys.executable, "-m", "ruff"]
    lint = run([*ruff, "check", "--isolated", "."], migrated_programs)
    assert lint.returncode == 0, lint.stdout
    formatted = run([*ruff, "format", "--isolated", "--check", "."], migrated_programs)
    assert formatted.returncode == 0, formatted.stdout
