"""A ``pulumi up`` killed mid-create under the real engine: its provider processes end on their
own, and the recovery the resources guide gives (``pulumi cancel``, ``pulumi refresh
--clear-pending-creates``, the records deleted by hand) leaves one record per resource through
the next ``up`` and nothing after ``destroy``."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

PROGRAM = """import altostratus as alto

alto.Network("a", label="a", cidr_v4="10.93.0.0/24")
alto.Network("b", label="b", cidr_v4="10.94.0.0/24")
"""
POSTS = ("POST", "/v2/vpc/networks")


def until(done: Callable[[], bool], what: str, seconds: float = 60) -> None:
    """Wait for what another process does (a process cannot be waited for otherwise here)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.1)


def provider_processes(home: Path) -> list[int]:
    """The dynamic provider processes started for the stack of ``home`` (its PULUMI_HOME)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if b"pulumi.dynamic" in command and f"PULUMI_HOME={home}".encode() in environ:
            found.append(int(entry.name))
    return found


def labels(emulator: Emulator) -> list[str]:
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        return sorted(n.label or "" for n in client.networks.list() if not n.default)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
def test_a_killed_up_leaves_no_process_and_its_recovery_no_duplicate(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    source = tmp_path / "source" / "interrupted"
    source.mkdir(parents=True)
    (source / "Pulumi.yaml").write_text(
        "name: interrupted\nruntime:\n  name: python\n  options:\n    toolchain: pip\n"
        "    virtualenv: venv\n"
    )
    (source / "__main__.py").write_text(PROGRAM)
    project = Project(source, tmp_path / "work", fresh_emulator)
    project.init()
    home = tmp_path / "work" / "home"

    # Both creates are held by the service long enough to kill the CLI while they are under way.
    fresh_emulator.add_fault(method="POST", path_prefix=POSTS[1], delay_seconds=3, count=2)
    pulumi = shutil.which("pulumi")
    assert pulumi is not None
    running = subprocess.Popen(
        [pulumi, "up", "--yes", "--skip-preview", "--non-interactive"],
        cwd=project.dir, env=project.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:

        def posted() -> int:
            return sum((r["method"], r["path"]) == POSTS for r in fresh_emulator.requests())

        until(lambda: posted() == 2, "both creates to reach the service")
        assert provider_processes(home)
        os.kill(running.pid, signal.SIGKILL)
        running.wait()
    finally:
        if running.poll() is None:
            running.kill()
            running.wait()
    try:
        until(lambda: not provider_processes(home), "the provider processes to end", seconds=10)
    finally:
        for left in provider_processes(home):  # none, unless the test fails
            with contextlib.suppress(ProcessLookupError):
                os.kill(left, signal.SIGKILL)
    until(lambda: labels(fresh_emulator) == ["a", "b"], "the held creates to finish")

    # The recovery: unlock, drop the pending creates, delete their records by hand.
    project("cancel", "--yes")
    pending = project.export()["deployment"].get("pending_operations") or []
    assert sorted(op["type"] for op in pending) == ["creating", "creating"]
    project("refresh", "--yes", "--skip-preview", "--clear-pending-creates")
    assert not project.export()["deployment"].get("pending_operations")
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        for op in pending:
            label = op["resource"]["inputs"]["label"]
            (made,) = [n for n in client.networks.list() if n.label == label]
            client.networks.delete(made.id)

    project("up", "--yes", "--skip-preview")
    assert labels(fresh_emulator) == ["a", "b"]
    assert json.loads(project("stack", "output", "--json")) == {}
    project("destroy", "--yes", "--skip-preview")
    assert labels(fresh_emulator) == []
    assert not provider_processes(home)
