"""The stack's ``pulumi:autonaming`` through the plugin under the real engine: the engine's
pattern names what the program leaves unnamed, and ``disabled`` asks the program for names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.plugin.test_engine_cycle import PROGRAMS
from tests.support.account import leftovers
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]


def _autonamed(emulator: Emulator, work: Path, setting: str) -> Project:
    project = Project(PROGRAMS / "autonamed", work, emulator)
    with (project.dir / "Pulumi.yaml").open("a") as yaml:
        yaml.write(f"config:\n  pulumi:autonaming:\n    value:\n{setting}")
    project.init()
    return project


def test_the_stacks_pattern_names_the_resources(fresh_emulator: Emulator, tmp_path: Path) -> None:
    project = _autonamed(fresh_emulator, tmp_path, "      pattern: ${stack}-${name}-${hex(4)}\n")
    up = project("up", "--yes", "--skip-preview")
    assert "does not support autonaming" not in up
    outputs = project.export()["deployment"]["resources"][0]["outputs"]
    assert re.fullmatch(r"dev-web-[0-9a-f]{4}", outputs["ip_name"]), outputs
    assert re.fullmatch(r"dev-deploy-[0-9a-f]{4}", outputs["credential_name"]), outputs
    assert re.fullmatch(r"dev-app-[0-9a-f]{4}", outputs["network_label"]), outputs
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        assert [ip.name for ip in client.reserved_ips.list()] == [outputs["ip_name"]]
    project("preview", "--expect-no-changes")
    project("destroy", "--yes", "--skip-preview")
    assert leftovers(fresh_emulator) == {}


def test_autonaming_disabled_fails_the_preview_naming_the_input(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    project = _autonamed(fresh_emulator, tmp_path, "      mode: disabled\n")
    shown = " ".join(project("preview", ok=False).split())
    # The engine stops at the first failed check: the IP's or credential's name, or the label.
    assert re.search(r"(name|label) is required: automatic names are disabled for this ", shown)
    assert leftovers(fresh_emulator) == {}
