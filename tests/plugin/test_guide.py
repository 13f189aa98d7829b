"""The Python programs of docs/plugin.md, run as written by the real engine against the
emulator: the default provider's, the explicit providers' (the one without settings falls
back to the ``ALTOSTRATUS_*`` variables, the other is another account of the same emulator), and
the lookups through a provider."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.support.account import leftovers
from tests.support.doc_pages import page
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

PROGRAMS = re.findall(
    r"<!-- run by tests/plugin/test_guide.py -->\n```python\n(.*?)```",
    page("docs/plugin.md"),
    re.DOTALL,
)


def project_of(program: str, tmp_path: Path, emulator: Emulator) -> Project:
    source = tmp_path / "source" / "guide"
    source.mkdir(parents=True)
    (source / "Pulumi.yaml").write_text("name: guide\nruntime: python\n")
    (source / "__main__.py").write_text(program)
    return Project(source, tmp_path / "work", emulator)


def labels(emulator: Emulator, api_key: str, region: str) -> list[str]:
    with Client(api_key=api_key, api_url=emulator.api_url) as client:
        return sorted(n.label or "" for n in client.networks.list(region=region) if not n.default)


def test_the_guide_has_its_three_programs() -> None:
    assert len(PROGRAMS) == 3


def test_the_default_providers_program(fresh_emulator: Emulator, tmp_path: Path) -> None:
    project = project_of(PROGRAMS[0], tmp_path, fresh_emulator)
    project.init()
    project("up", "--yes")
    outputs = project.export()["deployment"]["resources"][0]["outputs"]
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        default = next(n for n in client.networks.list() if n.default)
        assert {n.label for n in client.networks.list() if not n.default} == {"app"}
        assert [len(f.rules or []) for f in client.firewalls.list()] == [1]
    assert outputs["default_network"] == str(default.id)
    project("preview", "--expect-no-changes")
    project("destroy", "--yes")
    assert leftovers(fresh_emulator) == {}


def test_the_explicit_providers_program(fresh_emulator: Emulator, tmp_path: Path) -> None:
    other = fresh_emulator.add_account("other")
    project = project_of(PROGRAMS[1], tmp_path, fresh_emulator)
    project.env["ALTOSTRATUS_API_URL"] = fresh_emulator.api_url
    project.env["ALTOSTRATUS_API_KEY"] = fresh_emulator.api_key
    project("stack", "init", "dev")
    project("config", "set", "--secret", "otherKey", other["api_key"])
    project("config", "set", "--secret", "altostratus:apiKey", "not-read-by-explicit-providers")
    project("up", "--yes")
    assert labels(fresh_emulator, fresh_emulator.api_key, "FRA1") == ["eu"]
    assert labels(fresh_emulator, other["api_key"], "NYC1") == ["us"]
    project("preview", "--expect-no-changes")
    project("destroy", "--yes")
    assert labels(fresh_emulator, other["api_key"], "NYC1") == []
    assert leftovers(fresh_emulator) == {}


def test_the_lookups_through_a_provider_program(fresh_emulator: Emulator, tmp_path: Path) -> None:
    project = project_of(PROGRAMS[2], tmp_path, fresh_emulator)
    project.env["ALTOSTRATUS_API_URL"] = fresh_emulator.api_url
    project.env["ALTOSTRATUS_API_KEY"] = fresh_emulator.api_key
    project("stack", "init", "dev")
    project("up", "--yes")
    outputs = project.export()["deployment"]["resources"][0]["outputs"]
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        defaults = {region: next(n for n in client.networks.list(region=region) if n.default)
                    for region in ("LON1", "FRA1")}  # fmt: skip
        limit = client.quota.get().network_count_limit
    assert outputs["home_network"] == defaults["LON1"].id
    assert outputs["eu_default_network"] == defaults["FRA1"].id
    assert outputs["network_limit"] == limit
    project("destroy", "--yes")
