"""``pulumi package gen-sdk --language python`` and ``pulumi package add`` through the stand-in
language host: a generated SDK installs, imports, and asks for the plugin of the package's
version (not 0.0.0); ``package add`` links it into a program's requirements."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_package import declared_version
from tools import schema

from .conftest import OFFLINE_PIP, Pulumi, offline_venv

pytestmark = pytest.mark.real_engine

#: What the program checks of the installed SDK: its classes, and the version its resources ask
#: the engine for (``get_resource_opts_defaults`` is what every generated resource passes).
PROBE = """
import inspect
import pulumi_altostratus as alto
print(alto._utilities.get_resource_opts_defaults().version)
print(" ".join(sorted(inspect.signature(alto.NetworkArgs.__init__).parameters)[1:]))
print(alto.FirewallInlineRuleArgs.__name__, alto.get_network.__name__, alto.Provider.__name__)
"""


def probe(python: Path | str, *, path: Path | None = None) -> list[str]:
    env = {"PYTHONPATH": str(path)} if path else None
    answer = subprocess.run(
        [python, "-c", PROBE], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    assert answer.returncode == 0, answer.stderr
    return answer.stdout.split("\n")


def test_gen_sdk_writes_a_package_of_the_packages_version(pulumi: Pulumi, tmp_path: Path) -> None:
    answer = pulumi(
        "package", "gen-sdk", str(schema.SCHEMA), "--language", "python", "--out", "sdk"
    )
    assert answer.returncode == 0, answer.stderr
    generated = tmp_path / "sdk" / "python"
    # The schema's dotted packageName is where programs import from; the SDK keeps the default.
    plugin = json.loads((generated / "pulumi_altostratus" / "pulumi-plugin.json").read_text())
    assert plugin == {"resource": True, "name": "altostratus", "version": declared_version()}
    modules = sorted(p.stem for p in (generated / "pulumi_altostratus").glob("*.py"))
    assert {"network", "firewall_rule", "load_balancer", "get_network", "provider"} <= set(modules)

    installed = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(installed), "."],
        cwd=generated,
        env={**os.environ, **OFFLINE_PIP},
        capture_output=True,
        check=True,
        timeout=300,
    )
    version, network, names = probe(sys.executable, path=installed)[:3]
    assert version == declared_version()
    assert network == "cidr_v4 ipv4_enabled label nameservers_v4 region"
    assert names == "FirewallInlineRuleArgs get_network Provider"


def test_package_add_links_the_sdk_into_a_programs_requirements(
    pulumi: Pulumi, tmp_path: Path
) -> None:
    """``pulumi package add <schema>`` generates the SDK into ``sdks/``, the host adds it to
    requirements.txt (once) and installs it into the program's environment, and the CLI shows
    the import line the host answers."""
    python = offline_venv(tmp_path / "venv")
    program = tmp_path / "program"
    program.mkdir()
    (program / "Pulumi.yaml").write_text(
        f"name: linked\nruntime:\n  name: python\n  options:\n    virtualenv: {tmp_path / 'venv'}\n"
    )
    (program / "requirements.txt").write_text("pulumi>=3.0.0")
    (program / "__main__.py").write_text("import pulumi\n")

    for _ in range(2):
        answer = pulumi("package", "add", str(schema.SCHEMA), cwd=program, env=OFFLINE_PIP)
        assert answer.returncode == 0, answer.stdout + answer.stderr
        assert "import pulumi_altostratus as altostratus" in answer.stdout
    assert (program / "requirements.txt").read_text() == "pulumi>=3.0.0\n./sdks/altostratus\n"
    assert (program / "sdks" / "altostratus" / "pulumi_altostratus" / "network.py").is_file()
    assert probe(python)[0] == declared_version()
