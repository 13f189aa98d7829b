"""A Pulumi project directory as the language host runs it, and a stack's configuration.

``Pulumi.yaml`` names the project (``name:``), may move the program (``main:``, a folder
holding ``__main__.py`` or a file) and may give configuration defaults (``config:``), which a
stack's ``Pulumi.<stack>.yaml`` overrides. The program runs with its folder as the working
directory and first on ``sys.path``, as under ``pulumi up``; the project's modules it imports
are forgotten after the run, as each ``pulumi up`` starts a new interpreter.
"""

from __future__ import annotations

import json
import os
import re
import runpy
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

_NAME = re.compile(r"^name:[ \t]*['\"]?([^'\"\s#]+)", re.MULTILINE)
_MAIN = re.compile(r"^main:[ \t]*['\"]?([^'\"\s#]+)", re.MULTILINE)


@dataclass(frozen=True)
class ConfigValue:
    """A stack configuration value, and whether it is a secret (``pulumi config set --secret``)."""

    value: str
    secret: bool = False


def full_key(project: str, key: str) -> str:
    """``key`` with its namespace: bare keys belong to the project."""
    return key if ":" in key else f"{project}:{key}"


def _settings(directory: Path) -> str:
    return (directory / "Pulumi.yaml").read_text(encoding="utf-8")


def load_project_name(directory: Path) -> str:
    """The ``name`` of a project's ``Pulumi.yaml`` (its top-level ``name:`` line)."""
    found = _NAME.search(_settings(directory))
    if found is None:
        raise ValueError(f"{directory / 'Pulumi.yaml'} has no name")
    return found.group(1)


def entry_point(directory: Path) -> Path:
    """The file the program starts in: ``__main__.py``, or what ``main:`` points at."""
    found = _MAIN.search(_settings(directory))
    main = (directory / found.group(1)) if found else directory
    return (main / "__main__.py" if main.is_dir() else main).resolve()


def run_project(directory: Path) -> None:
    """Run the project's program in this process, from its folder.

    The project's modules a run imports are forgotten after it: the next run imports them
    afresh (declaring again what they declare), and another project's module of the same name
    is not taken for this one's.
    """
    entry = entry_point(directory)
    folder = str(entry.parent)
    before = set(sys.modules)
    previous = os.getcwd()
    sys.path.insert(0, folder)
    os.chdir(folder)
    try:
        runpy.run_path(str(entry), run_name="__main__")
    finally:
        os.chdir(previous)
        sys.path.remove(folder)
        for name in set(sys.modules) - before:
            file = getattr(sys.modules[name], "__file__", None) or ""
            if file.startswith(folder + os.sep):
                del sys.modules[name]


def stack_config(directory: Path, stack: str) -> dict[str, str]:
    """The plain configuration the engine reads for ``stack``: the project's defaults, then the
    stack file's values. Encrypted (``secure:``) values are left out: a test sets them."""
    found: dict[str, str] = {}
    project = yaml.safe_load(_settings(directory)) or {}
    for key, value in (project.get("config") or {}).items():
        plain = value.get("default", value.get("value")) if isinstance(value, dict) else value
        if plain is not None:
            found[str(key)] = _text(plain)
    stack_file = directory / f"Pulumi.{stack}.yaml"
    if stack_file.is_file():
        settings = yaml.safe_load(stack_file.read_text(encoding="utf-8")) or {}
        for key, value in (settings.get("config") or {}).items():
            if not (isinstance(value, dict) and "secure" in value):
                found[str(key)] = _text(value)
    return found


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
