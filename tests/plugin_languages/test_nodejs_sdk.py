"""The TypeScript SDK under ``sdk/nodejs``: what the Pulumi CLI generates from the package
schema (``python -m tools.sdks``), at the package's version, with the ``@pulumi/pulumi`` the
engine runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_package import declared_version
from tools import schema, sdks


def test_the_sdk_asks_for_the_plugin_of_the_package_s_version() -> None:
    package = json.loads((sdks.NODEJS / "package.json").read_text(encoding="utf-8"))
    assert package["name"] == schema.NPM_PACKAGE
    assert package["version"] == declared_version()
    assert package["pulumi"] == {
        "resource": True,
        "name": "altostratus",
        "version": declared_version(),
    }
    assert package["dependencies"]["@pulumi/pulumi"] == schema.PULUMI_NODEJS
    network = (sdks.NODEJS / "network.ts").read_text(encoding="utf-8")
    assert "'altostratus:index:Network'" in network


@pytest.mark.real_engine
def test_the_checked_in_sdk_is_what_the_schema_generates() -> None:
    assert sdks.main(["--check"]) == 0, "run python -m tools.sdks"


@pytest.mark.real_engine
def test_the_check_names_what_a_changed_schema_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A schema whose network says something new: the check fails, naming network.ts."""
    document = json.loads(sdks.SCHEMA.read_text(encoding="utf-8"))
    document["resources"]["altostratus:index:Network"]["description"] = "A network, said anew."
    changed = tmp_path / "schema.json"
    changed.write_text(json.dumps(document), encoding="utf-8")
    monkeypatch.setattr(sdks, "SCHEMA", changed)
    assert sdks.main(["--check"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("sdk/nodejs is stale: run python -m tools.sdks (network.ts: differs)")


def test_without_the_engine_the_command_says_how_to_build_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("ALTOSTRATUS_ENGINE_DIR", str(tmp_path / "none"))
    assert sdks.main(["--check"]) == 2
    assert capsys.readouterr().err == (
        "tools.sdks: pulumi is not on PATH: run tools/engine/build (it builds the CLI and the "
        "Node.js language host)\n"
    )
