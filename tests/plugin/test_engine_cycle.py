"""The eight resources through the provider plugin under the real engine: a Python program's
whole life (preview, up, a clean preview, an update in place, refresh, destroy), its secrets
encrypted in the state, nothing left in the emulator."""

from __future__ import annotations

from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.examples.test_real_engine import audit_secrets
from tests.support.account import leftovers
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

PROGRAMS = Path(__file__).parent / "programs"
KINDS = {
    "Network:app",
    "Firewall:edge",
    "Firewall:guarded",
    "FirewallRule:ssh",
    "LoadBalancer:web",
    "ReservedIp:web",
    "ObjectStore:assets",
    "ObjectStoreCredential:deploy",
    "Webhook:events",
}


def test_every_kind_lives_its_whole_life_through_the_plugin(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    project = Project(PROGRAMS / "all-kinds", tmp_path, fresh_emulator)
    project.init()
    project("config", "set", "--secret", "hookSecret", "hook-secret-text-1")
    assert project.operations() == dict.fromkeys(KINDS, "create")
    project("up", "--yes", "--skip-preview")
    state = project.export()["deployment"]["resources"]
    types = {r["type"] for r in state if not r["type"].startswith("pulumi:")}
    assert types == {f"altostratus:index:{kind.split(':')[0]}" for kind in KINDS}
    assert any(r["type"] == "pulumi:providers:altostratus" for r in state)
    # Each resource's source position is the program's line that made it, not the package's.
    (network,) = [r for r in state if r["type"] == "altostratus:index:Network"]
    program = (PROGRAMS / "all-kinds" / "__main__.py").read_text().splitlines()
    line = next(n for n, text in enumerate(program, 1) if text.startswith("network = alto.Network"))
    assert network["sourcePosition"] == f"project:///__main__.py#{line}"
    outputs = project.export(show_secrets=True)["deployment"]["resources"][0]["outputs"]
    assert outputs["label"] == "app"
    assert outputs["cidr"] == "10.40.0.0/24"
    assert outputs["rule_port"] == "22"
    assert outputs["inline"][0]["start_port"] == "443"
    project("preview", "--expect-no-changes")

    project("config", "set", "label", "renamed")
    changed = project.operations()
    assert changed["Network:app"] == "update"
    assert {op for name, op in changed.items() if name != "Network:app"} <= {"same"}
    project("up", "--yes", "--skip-preview")
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        assert [n.label for n in client.networks.list() if not n.default] == ["renamed"]
    project("refresh", "--yes", "--expect-no-changes")
    project("preview", "--expect-no-changes")

    # Drift: a label changed outside the stack is read by refresh and put back by up.
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        (network,) = [n for n in client.networks.list() if not n.default]
        client.networks.update(network.id, label="by-hand", region=network.region)
    project("refresh", "--yes")
    (refreshed,) = [
        r
        for r in project.export()["deployment"]["resources"]
        if r["type"] == "altostratus:index:Network"
    ]
    assert refreshed["outputs"]["label"] == "by-hand"
    assert project.operations()["Network:app"] == "update"
    project("up", "--yes", "--skip-preview")
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        assert [n.label for n in client.networks.list() if not n.default] == ["renamed"]
    project("preview", "--expect-no-changes")
    audit_secrets(project, fresh_emulator)
    assert "hook-secret-text-1" not in str(project.export())

    project("destroy", "--yes", "--skip-preview")
    assert leftovers(fresh_emulator) == {}
