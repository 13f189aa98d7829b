"""The real ``pulumi`` CLI against the emulator, where the CLI is installed.

The engine's side is otherwise played by ``altostratus.testing``; this test checks the same example
through ``pulumi preview/up/refresh/destroy`` with a local backend when it can.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from altostratus.emulator import Emulator
from tests.support.account import EXAMPLES, leftovers
from tests.support.pulumi_cli import Project

pytestmark = pytest.mark.real_engine


def test_private_network_with_the_real_cli(fresh_emulator: Emulator, tmp_path: Path) -> None:
    PULUMI = shutil.which("pulumi")
    assert PULUMI is not None
    project = tmp_path / "private-network"
    shutil.copytree(EXAMPLES / "private-network", project)
    # Use this interpreter's environment, where altostratus is installed, instead of ./venv.
    (project / "Pulumi.yaml").write_text(
        "name: altostratus-private-network\n"
        "runtime:\n  name: python\n  options:\n"
        f"    toolchain: pip\n    virtualenv: {Path(sys.prefix)}\n"
    )
    env = {
        **os.environ,
        "PULUMI_HOME": str(tmp_path / "home"),
        "PULUMI_BACKEND_URL": (tmp_path / "state").as_uri(),
        "PULUMI_CONFIG_PASSPHRASE": "test",
        "PULUMI_SKIP_UPDATE_CHECK": "true",
    }
    (tmp_path / "state").mkdir()

    def pulumi(*args: str) -> str:
        answer = subprocess.run(
            [PULUMI, *args, "--non-interactive"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert answer.returncode == 0, answer.stdout + answer.stderr
        return answer.stdout

    pulumi("stack", "init", "dev")
    pulumi("config", "set", "altostratus:apiUrl", fresh_emulator.api_url)
    pulumi("config", "set", "--secret", "altostratus:apiKey", fresh_emulator.api_key)
    pulumi("preview")
    pulumi("up", "--yes")
    assert pulumi("stack", "output", "network_cidr").strip() == "10.20.0.0/24"
    pulumi("preview", "--expect-no-changes")
    pulumi("refresh", "--yes")

    # The engine stores the whole stack config as the dynamic provider's inputs: the key is in
    # the state, encrypted, and only there (no resource's inputs or outputs hold it).
    assert fresh_emulator.api_key not in pulumi("stack", "export")
    exported = json.loads(pulumi("stack", "export", "--show-secrets"))
    resources = exported["deployment"]["resources"]
    (provider,) = [r for r in resources if r["type"] == "pulumi:providers:pulumi-python"]
    assert fresh_emulator.api_key in json.dumps(provider["inputs"])
    others = [r for r in resources if r is not provider]
    assert fresh_emulator.api_key not in json.dumps(others)

    # A changed range replaces network, firewall and rules; the old ones go last.
    pulumi("config", "set", "cidr", "10.40.0.0/24")
    pulumi("up", "--yes")
    assert pulumi("stack", "output", "network_cidr").strip() == "10.40.0.0/24"
    pulumi("destroy", "--yes")
    assert leftovers(fresh_emulator) == {}


def test_a_stack_without_configuration_runs_with_the_real_cli(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    """A stack that was never given a `config set` (the key and URL come from the environment)
    runs: the language host leaves the program's configuration variable unset, as the published
    host does, instead of handing the SDK a null it cannot read."""
    pulumi = Project(EXAMPLES / "private-network", tmp_path, fresh_emulator)
    pulumi.env.update(
        ALTOSTRATUS_API_URL=fresh_emulator.api_url, ALTOSTRATUS_API_KEY=fresh_emulator.api_key
    )

    pulumi("stack", "init", "dev")
    assert json.loads(pulumi("config", "--json")) == {}
    pulumi("up", "--yes")
    assert pulumi("stack", "output", "network_cidr").strip() == "10.20.0.0/24"
    assert leftovers(fresh_emulator)["networks"] == 1
    pulumi("destroy", "--yes")
    assert leftovers(fresh_emulator) == {}
