"""``pulumi import`` of the plugin's resources under the real engine: the stand-in language host
writes Python code (by Pulumi's own generator, from the package schema) that imports the
plugin's front end, names the resource with its inputs, parses, and previews with no change."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(300)]


@pytest.fixture
def empty_program(fresh_emulator: Emulator, tmp_path: Path) -> Project:
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
    empty_program: Project, client: Client
) -> None:
    network = client.networks.create(label="handmade", cidr_v4="10.60.0.0/24")
    code = imported(empty_program, "Network", "handmade", network.id)
    assert "import altostratus.plugin as altostratus" in code.splitlines()
    found = call(code, "Network")
    assert ast.unparse(found.args[0]) == "'handmade'"
    given = keywords(found)
    assert given["label"] == "'handmade'"
    assert given["cidr_v4"] == "'10.60.0.0/24'"
    assert given["opts"] == "pulumi.ResourceOptions(protect=True)"
    state = empty_program.export()["deployment"]["resources"]
    assert [r["id"] for r in state if r["type"] == "altostratus:index:Network"] == [network.id]


def test_an_imported_firewall_rule_is_read_by_its_firewall_and_rule_ids(
    empty_program: Project, client: Client
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
    code = imported(empty_program, "FirewallRule", "ssh", f"{firewall.id}:{rule.id}")
    given = keywords(call(code, "FirewallRule"))
    assert given["firewall_id"] == repr(str(firewall.id))
    assert given["start_port"] == "'22'"
    assert given["protocol"] == "'tcp'"
    assert given["label"] == "'ssh'"


def test_every_kind_imported_at_once_previews_unchanged(
    empty_program: Project, client: Client, tmp_path: Path
) -> None:
    """``pulumi import --file`` of one record of each of the eight kinds: one program for all,
    each resource named as asked, with the plugin's nested ``<Name>Args`` classes."""
    network = client.networks.create(label="app", cidr_v4="10.40.0.0/24")
    firewall = client.firewalls.create(
        name="edge", network_id=network.id, create_default_rules=False
    )
    rule = client.firewall_rules.create(
        firewall.id, protocol="udp", start_port="53", end_port="54", cidr="10.0.0.0/8"
    )
    balancer = client.load_balancers.create(
        name="web",
        network_id=network.id,
        backends=[{"ip": "10.40.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}],
    )
    address = client.reserved_ips.create(name="web-ip")
    store = client.object_stores.create(name="assets", max_size_gb=500)
    credential = client.object_store_credentials.create(name="deploy", max_size_gb=500)
    hook = client.webhooks.create(url="http://127.0.0.1:9/a")
    wanted = {
        "Network": ("app", network.id),
        "Firewall": ("edge", firewall.id),
        "FirewallRule": ("dns", f"{firewall.id}:{rule.id}"),
        "LoadBalancer": ("web", balancer.id),
        "ReservedIp": ("address", address.id),
        "ObjectStore": ("assets", store.id),
        "ObjectStoreCredential": ("deploy", credential.id),
        "Webhook": ("events", hook.id),
    }
    listed = tmp_path / "resources.json"
    listed.write_text(
        json.dumps(
            {
                "resources": [
                    {"type": f"altostratus:index:{kind}", "name": name, "id": str(id_)}
                    for kind, (name, id_) in wanted.items()
                ]
            }
        )
    )
    out = empty_program.dir / "imported.py"
    empty_program("import", "--file", str(listed), "--yes", "--out", str(out))
    code = out.read_text()
    (empty_program.dir / "__main__.py").write_text(code)
    empty_program("preview", "--expect-no-changes")

    for kind, (name, _) in wanted.items():
        assert ast.unparse(call(code, kind).args[0]) == repr(name)
    assert "altostratus.LoadBalancerBackendArgs" in code
    state = empty_program.export()["deployment"]["resources"]
    ids = {r["type"].rsplit(":", 1)[-1]: r["id"] for r in state if "index" in r["type"]}
    assert ids == {kind: str(id_).rsplit(":", 1)[-1] for kind, (_, id_) in wanted.items()}
