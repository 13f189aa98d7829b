"""The pytest plugin's provider process: started when the session starts, used by the first
test that deploys, and stopped when no collected test deploys. Each case is a pytest session
of its own, whose tests look at their own process's children (Linux's ``/proc``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="reads child processes from /proc"
)

CONFTEST = 'pytest_plugins = ["altostratus.testing.pytest_plugin"]\n'

CHILDREN = '''
from pathlib import Path

from altostratus.testing.runner import COMMAND


def provider_children():
    """The provider processes this session's process started and that still run."""
    found = []
    for task in Path("/proc/self/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except FileNotFoundError:  # a thread that ended meanwhile
            continue
        for pid in children:
            try:
                line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\\0", b" ")
            except FileNotFoundError:
                continue
            if " ".join(COMMAND[1:]).encode() in line:
                found.append(int(pid))
    return found
'''


def _session(folder: Path, tests: str) -> subprocess.CompletedProcess[str]:
    (folder / "conftest.py").write_text(CONFTEST)
    (folder / "children.py").write_text(CHILDREN)
    (folder / "test_inner.py").write_text(textwrap.dedent(tests))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "test_inner.py"],
        cwd=folder, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def _passed(answer: subprocess.CompletedProcess[str], count: int) -> None:
    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert f"{count} passed" in answer.stdout


def test_the_process_started_with_the_session_is_the_one_the_first_stack_uses(
    tmp_path: Path,
) -> None:
    answer = _session(
        tmp_path,
        """
        import pulumi
        from altostratus import Network
        from children import provider_children

        started = []


        def test_one_process_runs_before_any_stack():
            started.extend(provider_children())
            assert len(started) == 1


        def test_the_stack_runs_on_it(altostratus_stack):
            stack = altostratus_stack(lambda: Network("net", cidr_v4="10.20.0.0/24"))
            assert stack.up().resources["Network:net"].id
            assert provider_children() == started
        """,
    )
    _passed(answer, 2)


def test_a_session_that_deploys_nothing_keeps_no_provider_process(tmp_path: Path) -> None:
    answer = _session(
        tmp_path,
        """
        from children import provider_children


        def test_the_emulator_alone(altostratus_fresh_emulator):
            assert altostratus_fresh_emulator.api_url.startswith("http://127.0.0.1:")
            assert provider_children() == []
        """,
    )
    _passed(answer, 1)


def test_a_provider_process_ends_with_the_session_that_started_it_even_killed(
    tmp_path: Path,
) -> None:
    """A session killed midway (kill -9: no teardown runs) leaves no provider process, once
    that process serves (before, it would end on writing its port to a closed pipe)."""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "children.py").write_text(CHILDREN)
    (tmp_path / "test_inner.py").write_text(
        textwrap.dedent(
            """
            import os
            import signal
            from pathlib import Path

            from altostratus import Network
            from children import provider_children


            def test_killed(altostratus_stack):
                altostratus_stack(lambda: Network("net", cidr_v4="10.20.0.0/24")).up()
                Path("pids").write_text(" ".join(map(str, provider_children())))
                os.kill(os.getpid(), signal.SIGKILL)
            """
        )
    )
    answer = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_inner.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    pids = tmp_path / "pids"
    assert pids.exists(), answer.stdout + answer.stderr
    (pid,) = map(int, pids.read_text().split())
    deadline = time.monotonic() + 30
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(pid)


def _running(pid: int) -> bool:
    """Whether the process runs (a zombie, ended but not yet reaped by init, does not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return fields[0] != "Z"
