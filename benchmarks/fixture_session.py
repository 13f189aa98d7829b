"""Section 15: a user's test session with the pytest plugin. A fresh ``pytest`` process runs a
test file as a user writes one: each test deploys ``examples/private-network`` with the
``altostratus_stack`` fixture and reads its outputs. Pytest's own report gives each test's
setup, call and teardown; the first test pays for the session's emulator and for waiting on
the provider process the session started, the next ones show the steady cost. Beside them, the
same session replays the same requests with bare httpx against the same fixture's emulator:
the floor of a test that deploys nothing through Pulumi.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.interpreters import Interpreters
from benchmarks.measure import median
from benchmarks.report import INFO, Section, Table, verdict
from benchmarks.run_replay import record
from benchmarks.servers import ROOT

TITLE = "15. A user's test session: the first test and the next"
PROJECT = ROOT / "examples" / "private-network"
TESTS = 8
TARGET = 0.250

CONFTEST = """
import json
import os
import time

import pytest

pytest_plugins = ["altostratus.testing.pytest_plugin"]

_times = {"imported": time.perf_counter(), "tests": []}


@pytest.hookimpl(trylast=True)  # after the plugin's own
def pytest_collection_finish(session):
    _times["collected"] = time.perf_counter()


def pytest_runtest_logreport(report):
    if report.when == "setup":
        _times["tests"].append({"name": report.nodeid})
    _times["tests"][-1][report.when] = report.duration
    _times["tests"][-1]["outcome." + report.when] = report.outcome


def pytest_sessionfinish(session):
    _times["finished"] = time.perf_counter()
    with open(os.environ["BENCHMARK_TIMES"], "w") as out:
        json.dump(_times, out)
"""

DEPLOYS = """
from pathlib import Path

PROJECT = Path({project!r})


{tests}
"""

DEPLOY = """
def test_deploy_{number}(altostratus_stack):
    result = altostratus_stack(PROJECT).up()
    assert result.outputs["network_id"].value
"""

REPLAYS = """
from pathlib import Path

from benchmarks.replay import raw_client, replay
from benchmarks.run_replay import load

EXCHANGES = load(Path({exchanges!r}))


{tests}
"""

REPLAY = """
def test_replay_{number}(altostratus_fresh_emulator):
    emulator = altostratus_fresh_emulator
    with raw_client(emulator.api_url, emulator.api_key) as http:
        statuses = replay(http, EXCHANGES)
    assert all(status < 400 for status in statuses), statuses
"""


def _write(folder: Path, exchanges: Path) -> None:
    (folder / "conftest.py").write_text(CONFTEST)
    tests = "\n".join(DEPLOY.format(number=n) for n in range(TESTS))
    (folder / "test_deploys.py").write_text(DEPLOYS.format(project=str(PROJECT), tests=tests))
    tests = "\n".join(REPLAY.format(number=n) for n in range(TESTS))
    (folder / "test_replays.py").write_text(REPLAYS.format(exchanges=str(exchanges), tests=tests))


def _up_exchanges(folder: Path) -> Path:
    """The requests of one ``up`` of the project (``record`` keeps the up and the destroy)."""
    recorded = folder / "recorded.json"
    record(PROJECT, recorded)
    kept = json.loads(recorded.read_text())
    deletes = [n for n, item in enumerate(kept) if item["method"] == "DELETE"]
    exchanges = folder / "exchanges.json"
    exchanges.write_text(json.dumps(kept[: deletes[0]] if deletes else kept))
    return exchanges


def _session(python: Interpreters, folder: Path, test_file: str) -> dict[str, Any]:
    """One pytest process on ``test_file``: the conftest's figures, and ``wall``, the process's
    whole time."""
    times = folder / f"{test_file}.json"
    python.environ["BENCHMARK_TIMES"] = str(times)
    python.environ["PYTHONPATH"] = str(ROOT)
    wall = python.timed("-m", "pytest", "-q", "-p", "no:cacheprovider", test_file)
    found: dict[str, Any] = json.loads(times.read_text())
    found["wall"] = wall
    return found


def _whole(test: dict[str, Any]) -> float:
    return float(test["setup"] + test["call"] + test["teardown"])


def run(quick: bool) -> Section:
    rounds = 1 if quick else 5
    section = Section("fixture_session", TITLE)
    firsts: list[dict[str, Any]] = []
    nexts: list[float] = []
    floors: list[float] = []
    walls: dict[str, list[float]] = {"deploys": [], "replays": []}
    before_tests: list[float] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        _write(folder, _up_exchanges(folder))
        with Interpreters(cwd=folder) as python:
            _session(python, folder, "test_deploys.py")  # unmeasured: writes the bytecode caches
            for _ in range(rounds):
                deploys = _session(python, folder, "test_deploys.py")
                firsts.append(deploys["tests"][0])
                nexts.extend(_whole(test) for test in deploys["tests"][1:])
                walls["deploys"].append(deploys["wall"])
                before_tests.append(deploys["collected"] - deploys["imported"])
                replays = _session(python, folder, "test_replays.py")
                floors.extend(_whole(test) for test in replays["tests"][1:])
                walls["replays"].append(replays["wall"])
    first = median([_whole(test) for test in firsts])
    setup = median([test["setup"] for test in firsts])
    call = median([test["call"] for test in firsts])
    steady, floor = median(nexts), median(floors)
    wall, wall_floor = median(walls["deploys"]), median(walls["replays"])
    table = Table(
        ["test", "setup + call + teardown", "of which setup", "target", "verdict"],
        caption=f"Median over {rounds} fresh pytest sessions of {TESTS} tests each; pytest's "
        "own durations.",
    )
    table.add("first test deploying with `altostratus_stack`", f"{first * 1000:.0f} ms",
              f"{setup * 1000:.0f} ms", f"≤ {TARGET * 1000:.0f} ms",
              verdict(first <= TARGET))  # fmt: skip
    table.add("each next test deploying", f"{steady * 1000:.0f} ms", "", "", INFO)
    table.add("each next test replaying the same requests with bare httpx",
              f"{floor * 1000:.0f} ms", "", "", INFO)  # fmt: skip
    section.tables.append(table)
    sessions = Table(
        ["pytest process", "wall time", "ratio"],
        caption="The same sessions as whole processes, from start to exit.",
    )
    sessions.add(f"{TESTS} tests deploying", f"{wall:.2f} s", f"{wall / wall_floor:.2f}")
    sessions.add(f"{TESTS} tests replaying with bare httpx", f"{wall_floor:.2f} s", "1.00")
    section.tables.append(sessions)
    section.notes.append(
        "the first test's setup starts the session's emulator and waits, if it must, for the "
        "provider process the plugin started when pytest was configured; its call includes the "
        f"program's first run under the Pulumi runtime (call: {call * 1000:.0f} ms); the "
        "session's fixtures imported the emulator and the runner after the collection, before "
        f"the first test (from the conftest's import to the collection's end: "
        f"{median(before_tests) * 1000:.0f} ms)"
    )
    section.data = {
        "wall": wall,
        "wall_floor": wall_floor,
        "first": first,
        "first_setup": setup,
        "first_call": call,
        "next": steady,
        "floor": floor,
        "rounds": rounds,
    }
    return section
