"""``pulumi import`` of each of the eight kinds through the plugin under the real engine: records
made by one stack are imported into another whose program declares them, which then previews
as no change and destroys them."""

from __future__ import annotations

from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.plugin.test_engine_cycle import KINDS, PROGRAMS
from tests.support.account import leftovers
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]


def made(project: Project) -> dict[str, tuple[str, dict[str, str]]]:
    """``Kind:name``: the id and outputs of each resource of the stack."""
    found = {}
    for resource in project.export()["deployment"]["resources"]:
        kind = resource["type"].rsplit(":", 1)[-1]
        if resource["type"].startswith("altostratus:index:"):
            name = resource["urn"].split("::")[-1]
            found[f"{kind}:{name}"] = (resource["id"], resource.get("outputs", {}))
    return found


def rule_ids(emulator: Emulator) -> set[str]:
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        return {str(rule.id) for f in client.firewalls.list() for rule in f.rules or []}


def test_every_kind_is_imported_and_then_previews_unchanged(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    maker = Project(PROGRAMS / "all-kinds", tmp_path / "maker", fresh_emulator)
    maker.init()
    maker("config", "set", "--secret", "hookSecret", "hook-secret-text-1")
    maker("up", "--yes", "--skip-preview")
    records = made(maker)
    assert set(records) == KINDS

    taker = Project(PROGRAMS / "all-kinds", tmp_path / "taker", fresh_emulator)
    taker.init()
    taker("config", "set", "--secret", "hookSecret", "hook-secret-text-1")
    for entry, (id_, outputs) in sorted(records.items()):
        kind, name = entry.split(":")
        if kind == "FirewallRule":
            id_ = f"{outputs['firewallId']}:{id_}"
        answer = taker(
            "import", f"altostratus:index:{kind}", name, id_, "--yes", "--generate-code=false"
        )
        assert "1 imported" in answer, answer
    assert {key: value[0] for key, value in made(taker).items()} == {
        key: value[0] for key, value in records.items()
    }
    # A firewall's inline rules are managed once the program lists them: the first update takes
    # the imported firewall's rules over (none made or deleted); the rest is unchanged.
    assert {k: v for k, v in taker.operations().items() if v != "same"} == {
        "Firewall:guarded": "update"
    }
    rules_before = rule_ids(fresh_emulator)
    taker("up", "--yes", "--skip-preview")
    assert rule_ids(fresh_emulator) == rules_before
    taker("preview", "--expect-no-changes", "--diff")
    taker("refresh", "--yes", "--expect-no-changes")
    taker("destroy", "--yes", "--skip-preview")
    assert leftovers(fresh_emulator) == {}
