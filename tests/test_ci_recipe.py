"""The CI guide's step that starts the emulator: it fails the job when the emulator never
answers, and prints each health answer on a line of its own. The real-engine run of the whole
recipe is in ``test_readme_cli.py``; here the commands around the loop are stand-ins."""

from __future__ import annotations

import os
import re
import socket
import subprocess
from pathlib import Path

import yaml
from doc_pages import section

CI_RECIPE = section("docs/ci.md", "# CI: `pulumi preview` and `pulumi up` against the emulator")


def start_step() -> str:
    (recipe,) = re.findall(r"```yaml\n(.*?)```", CI_RECIPE, re.DOTALL)
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
    script: str, env: dict[str, str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    """The step's script as GitHub's ``bash`` shell runs it: ``bash -e -o pipefail``."""
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
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
