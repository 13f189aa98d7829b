"""A provider plugin written in Python, run from its folder (``PulumiPlugin.yaml`` with
``runtime: python``) by the stand-in language host's RunPlugin."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tools import schema

from .conftest import Pulumi

pytestmark = pytest.mark.real_engine

#: A provider that answers the package's schema: enough for ``pulumi package get-schema`` to
#: start it, read its port, and ask it.
MAIN = f"""
import sys
from pulumi.provider import Provider, main

SCHEMA = open({str(schema.SCHEMA)!r}, encoding="utf-8").read()
main(Provider("0.1.0", SCHEMA), sys.argv[1:])
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
    answer = pulumi("package", "get-schema", str(plugin_folder(tmp_path, MAIN)))
    assert answer.returncode == 0, answer.stderr
    assert (
        json.loads(answer.stdout)["resources"].keys()
        == json.loads(schema.SCHEMA.read_text())["resources"].keys()
    )


def test_a_plugin_folder_that_fails_to_start_says_why(pulumi: Pulumi, tmp_path: Path) -> None:
    answer = pulumi("package", "get-schema", str(plugin_folder(tmp_path, "import missing_dep\n")))
    assert answer.returncode != 0
    assert "ModuleNotFoundError: No module named 'missing_dep'" in answer.stderr
