"""The README's "With the Pulumi CLI" section and the CI guide's recipe, run as written by the
real engine.

Substituted, and only this: the emulator's ports (free ones instead of 8787 and 8788) and the
local backend's folder (``pulumi login --local`` writes to the user's home, found from the
system's user database rather than ``HOME``; the tests log in to a temporary folder). The README's
project runs on the ``python3`` first on ``PATH``, this interpreter's environment, where
altostratus is installed, as in the user's activated environment; its passphrase and ``--yes``
come from the README's own commands. The CI recipe's project uses this interpreter's
environment instead of installing the package, and ``PULUMI_SKIP_CONFIRMATIONS``.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from tests.support.account import leftovers
from tests.support.doc_pages import section

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

WITH_THE_CLI = section("README.md", "### With the Pulumi CLI")
CI_RECIPE = section("docs/ci.md", "# CI: `pulumi preview` and `pulumi up` against the emulator")


def blocks(text: str) -> list[tuple[str, str]]:
    return re.findall(r"```(\w+)\n(.*?)```", text, re.DOTALL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def ports() -> tuple[int, int]:
    return free_port(), free_port()


@pytest.fixture
def environment(tmp_path: Path, ports: tuple[int, int]) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    # The venv's scripts (``altostratus``) first on PATH, as in an activated environment.
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    return {
        **os.environ,
        "PATH": path,
        "HOME": str(home),
        "PULUMI_HOME": str(home / ".pulumi"),
        "PULUMI_CONFIG_PASSPHRASE": "ci",
        "PULUMI_SKIP_CONFIRMATIONS": "true",
        "PULUMI_SKIP_UPDATE_CHECK": "true",
    }


def as_here(script: str, ports: tuple[int, int], backend: Path) -> str:
    """The script with this test's ports and local backend (see the module's docstring)."""
    backend.mkdir(exist_ok=True)
    script = script.replace("pulumi login --local", f"pulumi login {backend.as_uri()}")
    return script.replace("8787", str(ports[0])).replace("8788", str(ports[1]))


def shell(script: str, cwd: Path, env: dict[str, str]) -> str:
    answer = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert answer.returncode == 0, answer.stdout + answer.stderr
    return answer.stdout


@pytest.fixture
def readme_emulator(ports: tuple[int, int], environment: dict[str, str]) -> Iterator[Any]:
    """The emulator started by the README's own command, with the README's key."""
    ((language, command), *_) = blocks(WITH_THE_CLI)
    assert (language, command.strip()) == ("sh", "altostratus emulator")
    process = subprocess.Popen(
        ["altostratus", "emulator", "--port", str(ports[0]), "--s3-port", str(ports[1])],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        shell(
            f"for i in $(seq 100); do curl -fs http://127.0.0.1:{ports[0]}/_emulator/health "
            "&& exit 0; sleep 0.1; done; exit 1",
            Path.cwd(),
            environment,
        )
        # What ``leftovers`` reads of an emulator: its URL and the README's key.
        yield SimpleNamespace(api_url=f"http://127.0.0.1:{ports[0]}", api_key="local-dev-key")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def project(where: Path, program: str) -> Path:
    where.mkdir()
    (where / "Pulumi.yaml").write_text(
        "name: readme\nruntime:\n  name: python\n  options:\n"
        f"    toolchain: pip\n    virtualenv: {Path(sys.prefix)}\n"
    )
    (where / "__main__.py").write_text(program)
    return where


def test_the_readme_program_and_commands_deploy_with_the_real_engine(
    readme_emulator: Any,
    tmp_path: Path,
    ports: tuple[int, int],
    environment: dict[str, str],
) -> None:
    (_, (yaml_, project_file), (python, program), (sh, commands)) = blocks(WITH_THE_CLI)[:4]
    assert (yaml_, python, sh) == ("yaml", "python", "sh")
    where = tmp_path / "readme"
    where.mkdir()
    (where / "Pulumi.yaml").write_text(project_file)
    (where / "__main__.py").write_text(program)
    # Nothing the README does not say: no passphrase, no confirmation skipped.
    bare = {
        key: value
        for key, value in environment.items()
        if key not in ("PULUMI_CONFIG_PASSPHRASE", "PULUMI_SKIP_CONFIRMATIONS")
    }
    output = shell(as_here(commands, ports, tmp_path / "state"), where, bare)
    assert "error" not in output.lower()
    held = leftovers(readme_emulator)
    assert held == {
        "networks": 1,
        "firewalls": 2,  # the program's, and the balancer's own (opening its backend's port)
        "firewall_rules": 2,
        "load_balancers": 1,
        "reserved_ips": 1,
        "object_stores": 1,
        "credentials": 1,
        "webhooks": 1,
    }
    shell(
        "pulumi destroy --yes --non-interactive",
        where,
        environment | {"PULUMI_CONFIG_PASSPHRASE": "choose-a-passphrase"},
    )
    assert leftovers(readme_emulator) == {}


def test_the_readme_ci_recipe_runs_its_steps_as_written(
    tmp_path: Path, ports: tuple[int, int], environment: dict[str, str]
) -> None:
    (language, recipe), *_ = blocks(CI_RECIPE)  # the workflow; the compose and action follow
    assert language == "yaml"
    steps = yaml.safe_load(recipe)["jobs"]["stack"]["steps"]
    runs = {step.get("name", step["run"]): step for step in steps if "run" in step}
    environment = {**environment, **yaml.safe_load(recipe)["jobs"]["stack"]["env"]}
    infra = project(tmp_path / "infra", blocks(WITH_THE_CLI)[2][1])
    (infra / "requirements.txt").write_text("altostratus\n")
    (infra / "venv").symlink_to(Path(sys.prefix))
    (install,) = [key for key in runs if "pip install" in key and "venv" not in key]
    assert install == 'python -m pip install "altostratus[emulator]"'

    start = as_here(runs["Start the emulator"]["run"], ports, tmp_path / "state")
    server = subprocess.Popen(
        ["bash", "-c", start.replace(" &\n", " & echo $! > pid\n")],
        cwd=tmp_path,
        env=environment,
    )
    server.wait(timeout=60)
    assert server.returncode == 0
    try:
        apply = as_here(runs["Preview and apply"]["run"], ports, tmp_path / "state")
        # The package is installed in this interpreter's environment, which ./venv points at.
        apply = apply.replace(
            "python -m venv venv && venv/bin/python -m pip install -r requirements.txt", "true"
        )
        output = shell(apply, infra, environment)
        assert "error" not in output.lower()
    finally:
        os.kill(int((tmp_path / "pid").read_text()), signal.SIGTERM)
