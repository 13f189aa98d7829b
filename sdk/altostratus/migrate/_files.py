"""Writing the project: ``__main__.py`` and the report, and ``Pulumi.yaml`` and
``requirements.txt`` where the folder has none."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from altostratus._version import package_version, requirement
from altostratus.migrate._plan import Migration
from altostratus.migrate._program import FrontEnd, program_source
from altostratus.migrate._report import report_text

PROGRAM = "__main__.py"
REPORT = "migration-report.md"


def project_yaml(name: str, title: str) -> str:
    """``Pulumi.yaml``, written by the YAML library: whatever the source's title holds, it
    stays the text of ``description``."""
    document = {
        "name": name,
        "description": f"Resources adopted from {title}",
        "runtime": {"name": "python", "options": {"toolchain": "pip", "virtualenv": "venv"}},
    }
    text: str = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=1000)
    return text


class ProgramExists(FileExistsError):
    """The folder already holds a program; the message says how to go on."""


def project_name(folder: Path) -> str:
    """A Pulumi project name (letters, digits, ``-``, ``_``, ``.``) from the folder's name."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", folder.resolve().name).strip("-.")
    return name or "migrated"


def write_project(
    migration: Migration,
    folder: Path,
    *,
    project: str | None = None,
    replace: bool = False,
    front_end: FrontEnd = "dynamic",
) -> list[Path]:
    """Write the program (its resources through ``front_end``) and the report into ``folder``
    (made when missing), and the project files it lacks; the files written, in that order. An
    existing ``__main__.py`` is replaced only when asked."""
    program = folder / PROGRAM
    if program.exists() and not replace:
        raise ProgramExists(
            f"{program} exists: choose another folder, or pass --force to replace it"
        )
    folder.mkdir(parents=True, exist_ok=True)
    written = [program, folder / REPORT]
    program.write_text(program_source(migration, REPORT, front_end=front_end), encoding="utf-8")
    report = report_text(migration, PROGRAM, front_end=front_end)
    (folder / REPORT).write_text(report, encoding="utf-8")
    settings = folder / "Pulumi.yaml"
    if not settings.exists():
        name = project or project_name(folder)
        settings.write_text(project_yaml(name, migration.source.title), encoding="utf-8")
        written.append(settings)
    requirements = folder / "requirements.txt"
    if not requirements.exists():
        pulumi = requirement("pulumi") or "pulumi>=3,<4"
        requirements.write_text(f"altostratus>={package_version()}\n{pulumi}\n")
        written.append(requirements)
    return written
