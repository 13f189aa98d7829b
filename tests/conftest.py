from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import Stack
from tests.support.account import EXAMPLES
from tests.support.engine import Engine, ProviderProcess
from tests.support.provider_config import stack_config
from tests.support.real_engine import built_engine, engine_missing

# The real engine, where tools/engine/build has made it, comes first on PATH for every test: the
# CLI, the Automation API and the engine's plugin search then all find the same binaries.
# Providers the engine starts run on this interpreter, where altostratus is installed.
if (_engine := built_engine()) is not None:
    os.environ["PATH"] = f"{_engine}{os.pathsep}{os.environ.get('PATH', '')}"
os.environ.setdefault("PULUMI_PYTHON_CMD", sys.executable)
# The provider plugin (the console script pulumi-resource-altostratus) is found on PATH, as a user
# finds it once the package is installed in the environment whose bin/ is on theirs.
_scripts = str(Path(sys.executable).parent)
if _scripts not in os.environ["PATH"].split(os.pathsep):
    os.environ["PATH"] = f"{os.environ['PATH']}{os.pathsep}{_scripts}"
os.environ.setdefault("PULUMI_SKIP_UPDATE_CHECK", "true")

pytest_plugins = ["altostratus.testing.pytest_plugin"]


@pytest.fixture(scope="session")
def altostratus_emulator_settings() -> dict[str, Any]:
    return {"lb_ready_seconds": 0.2, "objectstore_ready_seconds": 0.1}


@pytest.fixture(scope="session")
def emulator(altostratus_emulator: Emulator) -> Emulator:
    """The session's started emulator."""
    return altostratus_emulator


@pytest.fixture
def fresh_emulator(emulator: Emulator) -> Emulator:
    """The session's emulator, reset before the test."""
    emulator.reset()
    return emulator


@pytest.fixture
def client(fresh_emulator: Emulator) -> Iterator[Client]:
    """A client of the freshly reset session emulator's account, acting outside any stack: the
    test's own view, another team's, the console's."""
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        yield client


@pytest.fixture(scope="module")
def provider_engine(emulator: Emulator) -> Iterator[Engine]:
    """A provider process (``python -m pulumi.dynamic``) configured with the session emulator's
    stack config and driven as the engine drives it, for the test module."""
    process = ProviderProcess(stack_config(emulator))
    yield Engine(process)
    process.close()


@pytest.fixture
def make_stack(altostratus_stack: Callable[..., Stack]) -> Callable[..., Stack]:
    """A stack of a program (a function, a folder, or an example's name) against the freshly
    reset emulator: the public ``altostratus_stack`` fixture, taking examples by name."""

    def make(program: Callable[[], None] | str | Path, **options: Any) -> Stack:
        source = EXAMPLES / program if isinstance(program, str) else program
        return altostratus_stack(source, **options)

    return make


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Real-engine tests skip where no engine is built, or fail where one is required."""
    reason = engine_missing()
    if reason is None or os.environ.get("ALTOSTRATUS_REQUIRE_ENGINE") == "1":
        return
    for item in items:
        if item.get_closest_marker("real_engine"):
            item.add_marker(pytest.mark.skip(reason=reason))


#: A test that takes longer than this (set-up, call and teardown together) is marked `slow` or
#: `real_engine`, or the summary names it: the fast tier stays fast by measurement, not by memory.
UNMARKED_LIMIT = 10.0
_unmarked_slow: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    keywords = getattr(report, "keywords", {})
    if "slow" in keywords or "real_engine" in keywords:
        return
    spent = _unmarked_slow.get(report.nodeid, 0.0) + report.duration
    _unmarked_slow[report.nodeid] = spent


def unmarked_over_limit() -> list[tuple[str, float]]:
    """The unmarked tests over the limit, slowest first."""
    over = [(node, spent) for node, spent in _unmarked_slow.items() if spent > UNMARKED_LIMIT]
    return sorted(over, key=lambda item: -item[1])


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Unmarked tests over the limit, then one line saying how many real-engine tests ran."""
    over = unmarked_over_limit()
    if over:
        terminalreporter.section("unmarked slow tests")
        for node, spent in over:
            terminalreporter.write_line(
                f"{spent:5.1f} s  {node}: mark it slow (over {UNMARKED_LIMIT:.0f} s)"
            )
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for outcome in counts:
        for report in terminalreporter.stats.get(outcome, []):
            if "real_engine" in getattr(report, "keywords", {}) and report.when in (
                "call",
                "setup",
            ):
                counts[outcome] += 1
    if any(counts.values()):
        ran = counts["passed"] + counts["failed"]
        terminalreporter.write_line(
            f"real Pulumi engine: {ran} tests ran ({counts['passed']} passed, "
            f"{counts['failed']} failed), {counts['skipped']} skipped"
        )
