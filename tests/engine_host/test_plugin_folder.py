"""A provider plugin written in Python, run from its folder (``PulumiPlugin.yaml`` with
``runtime: python``) by the stand-in language host's RunPlugin."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.providers.test_schema import without_empty_lists
from tools import schema

from .conftest import Pulumi

pytestmark = pytest.mark.real_engine

#: The package's own provider plugin, run from a folder as a plugin written in Python is.
MAIN = """
from altostratus._plugin_launch import main
main()
"""


def plugin_folder(tmp_path: Path, main: str) -> Path:
    folder = tmp_path / "plugin"
    folder.mkdir()
    (folder / "PulumiPlugin.yaml").write_text(
        f"runtime:\n  name: python\n  options:\n    virtualenv: {sys.prefix}\n"
    )
    (folder / "__main__.py").write_text(main)
    return folder


def test_the_engine_runs_a_python_plugin_folder(pulumi: Pulumi, tmp_path: Path) -> None:
    """The engine starts the folder's ``__main__.py`` through the host, reads its port, and
    asks it for the schema, which is the package's (less the empty lists the CLI drops)."""
    answer = pulumi("package", "get-schema", str(plugin_folder(tmp_path, MAIN)))
    assert answer.returncode == 0, answer.stderr
    document = json.loads(schema.SCHEMA.read_text(encoding="utf-8"))
    assert json.loads(answer.stdout) == without_empty_lists(document)


def test_a_plugin_folder_that_fails_to_start_says_why(pulumi: Pulumi, tmp_path: Path) -> None:
    answer = pulumi("package", "get-schema", str(plugin_folder(tmp_path, "import missing_dep\n")))
    assert answer.returncode != 0
    assert "ModuleNotFoundError: No module named 'missing_dep'" in answer.stderr
