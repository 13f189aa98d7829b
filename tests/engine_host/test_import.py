"""``pulumi import`` of the plugin's resources under the real engine: the stand-in language host
writes Python code (by Pulumi's own generator, from the package schema) that imports the
plugin's front end, names the resource with its inputs, parses, and previews with no change."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(300)]


@pytest.fixture
def project(fresh_emulator: Emulator, tmp_path: Path) -> Project:
    """An empty Python program with a stack configured for the emulator."""
    source = tmp_path / "source" / "adopted"
    source.mkdir(parents=True)
    (source / "Pulumi.yaml").write_text(
        "name: adopted\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n"
    )
    (source / "__main__.py").write_text("import pulumi\n")
    created = Project(source, tmp_path / "work", fresh_emulator)
    created.init()
    return created


def imported(project: Project, kind: str, name: str, id_: str) -> str:
    """The code ``pulumi import`` writes for one resource, made the program's, which then
    previews with no change."""
    out = project.dir / "imported.py"
    project("import", f"altostratus:index:{kind}", name, id_, "--yes", "--out", str(out))
    code = out.read_text()
    ast.parse(code)
    (project.dir / "__main__.py").write_text(code)
    project("preview", "--expect-no-changes")
    return code


def call(code: str, kind: str) -> ast.Call:
    """The one ``altostratus.<kind>(...)`` call of the code."""
    calls = [
        node
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.Call) and ast.unparse(node.func) == f"altostratus.{kind}"
    ]
    assert len(calls) == 1, code
    return calls[0]


def keywords(found: ast.Call) -> dict[str, str]:
    return {k.arg or "**": ast.unparse(k.value) for k in found.keywords}


def test_an_imported_network_is_written_as_the_plugins_and_previews_unchanged(
    project: Project, client: Client
) -> None:
    network = client.networks.create(label="handmade", cidr_v4="10.60.0.0/24")
    code = imported(project, "Network", "handmade", network.id)
    assert "import altostratus.plugin as altostratus" in code.splitlines()
    found = call(code, "Network")
    assert ast.unparse(found.args[0]) == "'handmade'"
    given = keywords(found)
    assert given["label"] == "'handmade'"
    assert given["cidr_v4"] == "'10.60.0.0/24'"
    assert given["opts"] == "pulumi.ResourceOptions(protect=True)"
    state = project.export()["deployment"]["resources"]
    assert [r["id"] for r in state if r["type"] == "altostratus:index:Network"] == [network.id]


def test_an_imported_firewall_rule_is_read_by_its_firewall_and_rule_ids(
    project: Project, client: Client
) -> None:
    network = client.networks.create(label="app")
    firewall = client.firewalls.create(network_id=network.id, name="edge")
    rule = client.firewall_rules.create(
        firewall.id,
        protocol="tcp",
        start_port="22",
        cidr="10.0.0.0/8",
        direction="ingress",
        action="allow",
        label="ssh",
    )
    code = imported(project, "FirewallRule", "ssh", f"{firewall.id}:{rule.id}")
    given = keywords(call(code, "FirewallRule"))
    assert given["firewall_id"] == repr(str(firewall.id))
    assert given["start_port"] == "'22'"
    assert given["protocol"] == "'tcp'"
    assert given["label"] == "'ssh'"
