"""``pulumi import`` into a TypeScript program under the real engine: the Node.js language host
writes TypeScript (by Pulumi's own generator, from the plugin's schema) that imports the SDK by
its npm name, type-checks against it, and previews with no change."""

from __future__ import annotations

from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(300)]


@pytest.fixture
def typescript_project(
    fresh_emulator: Emulator, tmp_path: Path, typescript_modules: Path
) -> Project:
    """An empty TypeScript program with a stack configured for the emulator."""
    source = tmp_path / "source" / "adopted"
    source.mkdir(parents=True)
    (source / "Pulumi.yaml").write_text("name: adopted\nruntime: nodejs\n")
    (source / "package.json").write_text('{"name": "adopted", "main": "index.ts"}\n')
    (source / "index.ts").write_text('import * as pulumi from "@pulumi/pulumi";\n')
    created = Project(source, tmp_path / "work", fresh_emulator)
    (created.dir / "node_modules").symlink_to(typescript_modules, target_is_directory=True)
    created.init()
    return created


def imported(project: Project, kind: str, name: str, id_: str) -> str:
    """The code ``pulumi import`` writes for one resource, added to the program (its imports
    once), which then previews with no change."""
    out = project.dir / "imported.ts"
    project("import", f"altostratus:index:{kind}", name, id_, "--yes", "--out", str(out))
    code = out.read_text()
    program = (project.dir / "index.ts").read_text().splitlines()
    for line in code.splitlines():
        if not (line.startswith("import ") and line in program):
            program.append(line)
    (project.dir / "index.ts").write_text("\n".join(program) + "\n")
    project("preview", "--expect-no-changes")
    return code


def test_imported_resources_are_written_in_typescript_and_preview_unchanged(
    typescript_project: Project, client: Client
) -> None:
    network = client.networks.create(label="handmade", cidr_v4="10.60.0.0/24")
    firewall = client.firewalls.create(network_id=network.id, name="edge")
    rule = client.firewall_rules.create(
        firewall.id, protocol="tcp", start_port="22", cidr=["10.0.0.0/8"], direction="ingress"
    )

    code = imported(typescript_project, "Network", "handmade", network.id)
    assert 'import * as altostratus from "@altostratus/pulumi";' in code.splitlines()
    assert 'const handmade = new altostratus.Network("handmade", {' in code
    assert '    cidrV4: "10.60.0.0/24",' in code.splitlines()
    assert "    protect: true," in code.splitlines()

    code = imported(typescript_project, "FirewallRule", "ssh", f"{firewall.id}:{rule.id}")
    assert 'const ssh = new altostratus.FirewallRule("ssh", {' in code
    assert f'    firewallId: "{firewall.id}",' in code.splitlines()
    state = typescript_project.export()["deployment"]["resources"]
    kept = {r["type"].rsplit(":", 1)[-1]: r["id"] for r in state if r.get("custom")}
    assert kept["Network"] == network.id
    assert kept["FirewallRule"].split(":")[-1] == rule.id
