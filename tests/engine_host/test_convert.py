"""``pulumi convert --language python`` of a PCL program using the plugin's resources: the
stand-in language host writes a project whose code imports the plugin's front end, passes
nested inputs as its ``<Name>Args`` classes, requires the package's distribution, and runs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from altostratus.emulator import Emulator
from tests.support.account import leftovers
from tests.support.pulumi_cli import Project
from tests.test_package import declared_version

from .conftest import Pulumi

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(300)]

PCL = """
resource app "altostratus:index:Network" {
  label = "app"
  cidrV4 = "10.50.0.0/24"
}

resource edge "altostratus:index:Firewall" {
  networkId = app.id
  createDefaultRules = false
  ingressRules = [{
    protocol = "tcp"
    startPort = "443"
    cidr = ["0.0.0.0/0"]
    action = "allow"
    label = "https"
  }]
}

output networkId {
  value = app.id
}
"""


def test_a_converted_program_uses_the_plugin_front_end_and_runs(
    pulumi: Pulumi, fresh_emulator: Emulator, tmp_path: Path
) -> None:
    source = tmp_path / "pcl"
    source.mkdir()
    (source / "main.pp").write_text(PCL)
    converted = tmp_path / "converted"
    answer = pulumi(
        "convert",
        "--from",
        "pcl",
        "--language",
        "python",
        "--generate-only",
        "--out",
        str(converted),
        cwd=source,
    )
    assert answer.returncode == 0, answer.stdout + answer.stderr

    requirements = (converted / "requirements.txt").read_text().split()
    assert requirements == [f"altostratus=={declared_version()}", "pulumi>=3.0.0,<4.0.0"]
    code = (converted / "__main__.py").read_text()
    assert "import altostratus.plugin as altostratus" in code.splitlines()
    calls = {
        ast.unparse(node.func) for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Call)
    }
    assert {
        "altostratus.Network",
        "altostratus.Firewall",
        "altostratus.FirewallInlineRuleArgs",
    } <= calls

    project_file = converted / "Pulumi.yaml"
    project_file.write_text(
        project_file.read_text().replace(
            "runtime: python", "runtime:\n  name: python\n  options:\n    virtualenv: venv"
        )
    )
    project = Project(converted, tmp_path / "work", fresh_emulator)
    project.init()
    project("up", "--yes", "--skip-preview")
    project("preview", "--expect-no-changes")
    firewalls = [
        r
        for r in project.export()["deployment"]["resources"]
        if r["type"] == "altostratus:index:Firewall"
    ]
    assert [rule["label"] for rule in firewalls[0]["outputs"]["ingressRules"]] == ["https"]
    project("destroy", "--yes", "--skip-preview")
    assert leftovers(fresh_emulator) == {}
