"""The CI guide's step that starts the emulator: it fails the job when the emulator never
answers, and prints each health answer on a line of its own. The real-engine run of the whole
recipe is in ``test_readme_cli.py``; here the commands around the loop are stand-ins."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.doc_pages import ROOT, section

CI_RECIPE = section("docs/ci.md", "# CI: `pulumi preview` and `pulumi up` against the emulator")


def start_step() -> str:
    recipe = re.findall(r"```yaml\n(.*?)```", CI_RECIPE, re.DOTALL)[0]  # the workflow
    steps = yaml.safe_load(recipe)["jobs"]["stack"]["steps"]
    (step,) = [step for step in steps if step.get("name") == "Start the emulator"]
    run: str = step["run"]
    return run


def stand_ins(folder: Path, **commands: str) -> dict[str, str]:
    """An environment whose PATH finds each of ``commands`` (name: shell body) first."""
    folder.mkdir()
    for name, body in commands.items():
        script = folder / name
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def run_as_github_does(
    script: str, env: dict[str, str], cwd: Path, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """The step's script as GitHub's ``bash`` shell runs it: ``bash -e -o pipefail``."""
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_the_start_step_fails_when_the_emulator_never_answers(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # Nothing listens on the port (the emulator exits at once); the waits are skipped.
    env = stand_ins(tmp_path / "bin", altostratus="exit 1", sleep="exit 0")
    script = start_step().replace("8787", str(port))
    answer = run_as_github_does(script, env, tmp_path)
    assert answer.returncode == 1
    assert answer.stderr.strip().splitlines()[-1] == (
        "the emulator did not answer /_emulator/health within 10 s"
    )


def test_the_start_step_prints_the_health_answer_on_its_own_line(tmp_path: Path) -> None:
    # The emulator answers on the third try; curl prints the answer without a newline.
    env = stand_ins(
        tmp_path / "bin",
        altostratus="exit 0",
        sleep="exit 0",
        curl="n=$(cat tries 2>/dev/null || echo 0); echo $((n + 1)) > tries\n"
        '[ "$n" -ge 2 ] || exit 7\nprintf \'{"status": "ok"}\'',
    )
    answer = run_as_github_does(start_step(), env, tmp_path)
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout == '{"status": "ok"}\n'
    assert (tmp_path / "tries").read_text().strip() == "3"


# The emulator's image: the compose service and the composite action (docs/ci.md).
COMPOSE = section("docs/ci.md", "## The emulator's image in a compose file")
ACTION = ROOT / ".github" / "actions" / "emulator" / "action.yml"
ACTION_DOC = section("docs/ci.md", "## The emulator's image in GitHub Actions")
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def compose_service() -> dict[str, Any]:
    (snippet,) = re.findall(r"```yaml\n(.*?)```", COMPOSE, re.DOTALL)
    service: dict[str, Any] = yaml.safe_load(snippet)["services"]["emulator"]
    return service


def dockerfile(instruction: str) -> str:
    """The text of the Dockerfile's last ``instruction`` (continuation lines joined)."""
    joined = DOCKERFILE.replace("\\\n", " ")
    (*_, found) = re.findall(rf"^{instruction} (.*)$", joined, re.MULTILINE)
    return " ".join(found.split())


def flag_variables() -> set[str]:
    import argparse

    from altostratus.cli._emulator import ENV_PREFIX, configure_parser

    parser = argparse.ArgumentParser(add_help=False)
    configure_parser(parser, environ={})
    return {ENV_PREFIX + action.dest.upper() for action in parser._actions}


def test_the_compose_service_matches_the_image() -> None:
    service = compose_service()
    assert set(service["environment"]) <= flag_variables(), service["environment"]
    exposed = set(dockerfile("EXPOSE").split())
    published = {port.rsplit(":", 1)[1] for port in service["ports"]}
    assert published == exposed == {"8787", "8788"}
    assert all(port.startswith("127.0.0.1:") for port in service["ports"])
    (volume,) = service["volumes"]
    assert volume.split(":")[1] == dockerfile("VOLUME") == "/var/lib/altostratus"
    image_check = json.loads(dockerfile("HEALTHCHECK").split(" CMD ", 1)[1])
    test = service["healthcheck"]["test"]
    assert (test[:3], image_check[:2]) == (["CMD", "python3", "-c"], ["python3", "-c"])
    assert "http://127.0.0.1:8787/_emulator/health" in test[3]
    assert "http://127.0.0.1:%s/_emulator/health" in image_check[2]
    action = yaml.safe_load(ACTION.read_text())
    assert service["image"] == action["inputs"]["image"]["default"] == "altostratus-emulator"


def test_the_action_s_inputs_are_the_variables_it_sets() -> None:
    action = yaml.safe_load(ACTION.read_text())
    (step,) = action["runs"]["steps"]
    for name in ("port", "s3-port", "api-key"):
        variable = "ALTOSTRATUS_EMULATOR_" + name.upper().replace("-", "_")
        assert variable in flag_variables() and variable in step["run"]
    documented = re.findall(r"`([a-z0-9-]+)`", ACTION_DOC)
    assert set(action["inputs"]) <= set(documented)
    assert set(action["outputs"]) <= set(documented)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def docker_ready() -> str | None:
    from tests.support.container import IMAGE, docker_missing

    missing = docker_missing()
    return None if missing is None else f"needs Docker and the image {IMAGE}: {missing}"


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.skipif(docker_ready() is not None, reason=str(docker_ready()))
def test_the_compose_service_runs_healthy_with_its_settings() -> None:
    """No compose plugin here: the service's settings given to ``docker run`` instead."""
    from tests.support.container import IMAGE

    service = compose_service()
    port, s3_port = free_port(), free_port()
    env = {
        **service["environment"],
        "ALTOSTRATUS_EMULATOR_PORT": str(port),
        "ALTOSTRATUS_EMULATOR_S3_PORT": str(s3_port),
    }
    check = service["healthcheck"]
    code = check["test"][3].replace("8787", str(port))
    command = ["docker", "run", "--detach", "--health-cmd", f'python3 -c "{code}"']
    command += ["--health-interval", check["interval"], "--health-timeout", check["timeout"]]
    command += ["--health-retries", str(check["retries"])]
    command += ["--health-start-period", check["start_period"]]
    command += ["-p", f"127.0.0.1:{port}:{port}", "-p", f"127.0.0.1:{s3_port}:{s3_port}"]
    for name, value in env.items():
        command += ["--env", f"{name}={value}"]
    container = subprocess.run([*command, IMAGE], capture_output=True, text=True, check=True)
    name = container.stdout.strip()
    try:
        deadline = time.monotonic() + 300
        status = ""
        while status != "healthy" and time.monotonic() < deadline:
            time.sleep(0.5)
            status = subprocess.run(
                ["docker", "inspect", "--format", "{{.State.Health.Status}}", name],
                capture_output=True,
                text=True,
            ).stdout.strip()
        logs = subprocess.run(["docker", "logs", name], capture_output=True, text=True).stdout
        assert status == "healthy", logs
        # The service's name in the URLs it reports, for the other services.
        assert f"S3:      http://emulator:{s3_port}" in logs
    finally:
        subprocess.run(["docker", "rm", "--force", "--volumes", name], capture_output=True)


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.skipif(docker_ready() is not None, reason=str(docker_ready()))
def test_the_action_starts_the_image_and_gives_its_addresses(tmp_path: Path) -> None:
    from tests.support.container import IMAGE

    (step,) = yaml.safe_load(ACTION.read_text())["runs"]["steps"]
    outputs = tmp_path / "outputs"
    port, s3_port = free_port(), free_port()
    env = {
        **os.environ,
        "IMAGE": IMAGE,
        "CONTEXT": str(ROOT),
        "PORT": str(port),
        "S3_PORT": str(s3_port),
        "API_KEY": "ci-key",
        "SETTINGS": "ALTOSTRATUS_EMULATOR_TIME_SCALE=10\nALTOSTRATUS_EMULATOR_QUIET=true\n",
        "GITHUB_OUTPUT": str(outputs),
    }
    answer = run_as_github_does(step["run"], env, tmp_path, timeout=500)
    given = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    try:
        assert answer.returncode == 0, answer.stderr
        assert given["api-url"] == f"http://127.0.0.1:{port}"
        assert given["s3-url"] == f"http://127.0.0.1:{s3_port}"
        request = urllib.request.Request(
            f"{given['api-url']}/v2/vpc/networks", headers={"Authorization": "Bearer ci-key"}
        )
        with urllib.request.urlopen(request, timeout=10) as networks:
            assert networks.status == 200
        clock = json.loads(urllib.request.urlopen(f"{given['api-url']}/_emulator/clock").read())
        assert clock["time_scale"] == 10
    finally:
        subprocess.run(
            ["docker", "rm", "--force", "--volumes", given["container"]], capture_output=True
        )
