"""Section 11: ``altostratus run`` on every example. The wall time of the command as a newcomer
types it (a fresh interpreter, the embedded emulator with its default readiness delays, the
provider process, up and destroy), and how it splits: the up and the destroy as the command
reports them, and the rest (start-up, imports, emulator and provider process)."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.interpreters import Interpreters
from benchmarks.measure import median
from benchmarks.report import INFO, Section, Table, verdict
from benchmarks.run_replay import record
from benchmarks.servers import ROOT

TITLE = "11. `altostratus run` on each example"
EXAMPLES = ROOT / "examples"
#: Projects an example reads through a StackReference, run before it in the same command.
BEFORE = {"stack-composition": ["private-network"], "default-network": ["private-network"]}
_DURATION = re.compile(r"^Duration: (\d+\.\d+)s$", re.MULTILINE)
_CREATED = re.compile(r" created \(", re.MULTILINE)


def _once(example: str) -> tuple[float, float, float, int]:
    """Wall time, up time, destroy time and resources created by one run of the command."""
    projects = [str(EXAMPLES / name) for name in [*BEFORE.get(example, []), example]]
    started = time.perf_counter()
    answer = subprocess.run(
        [sys.executable, "-m", "altostratus", "run", *projects],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
        cwd=ROOT,
    )
    wall = time.perf_counter() - started
    durations = [float(found) for found in _DURATION.findall(answer.stdout)]
    half = len(durations) // 2  # each project's up, then each one's destroy
    return wall, sum(durations[:half]), sum(durations[half:]), len(_CREATED.findall(answer.stdout))


REPLAYED = "private-network"
TARGET = 1.2


def _beside_replay(count: int) -> tuple[Table, dict[str, float]]:
    """``altostratus run`` of one example beside fresh processes that start the same embedded
    emulator and replay its requests (``benchmarks.run_replay``), without and with the Pulumi
    SDK's import; all in rounds, each round in another order."""
    with tempfile.TemporaryDirectory() as folder, Interpreters(cwd=ROOT) as python:
        recorded = Path(folder) / "exchanges.json"
        requests = record(EXAMPLES / REPLAYED, recorded)
        commands = {
            "interpreter": ("-c", "pass"),
            "floor": ("-m", "benchmarks.run_replay", str(recorded)),
            "floor and SDK": ("-m", "benchmarks.run_replay", str(recorded), "--import-pulumi"),
            "run": ("-m", "altostratus", "run", str(EXAMPLES / REPLAYED)),
        }
        for args in commands.values():
            python.run(*args)  # unmeasured: it writes the bytecode caches
        times: dict[str, list[float]] = {name: [] for name in commands}
        names = list(commands)
        for number in range(count):
            for name in names[number % len(names) :] + names[: number % len(names)]:
                times[name].append(python.timed(*commands[name]))
    figure = {name: median(values) for name, values in times.items()}
    share = figure["run"] / figure["floor"]
    beyond_sdk = figure["run"] / figure["floor and SDK"]
    table = Table(
        ["process", "wall time", "beside the floor", "target", "verdict"],
        caption="Whole processes, in rounds: the command on "
        f"{REPLAYED} ({requests} requests), and fresh interpreters that start the same "
        "embedded emulator and send the same requests with bare httpx (the floor), the "
        "same after importing the Pulumi SDK, and doing nothing.",
    )
    table.add("`altostratus run`", f"{figure['run']:.3f} s", f"{share:.2f}", f"≤ {TARGET:.1f}",
              verdict(share <= TARGET))  # fmt: skip
    table.add("raw replay (the floor)", f"{figure['floor']:.3f} s", "1.00", "", INFO)
    table.add("raw replay after `import pulumi`", f"{figure['floor and SDK']:.3f} s",
              f"{figure['floor and SDK'] / figure['floor']:.2f}", "", INFO)  # fmt: skip
    table.add("`python -c pass`", f"{figure['interpreter']:.3f} s",
              f"{figure['interpreter'] / figure['floor']:.2f}", "", INFO)  # fmt: skip
    table.add("`altostratus run` beside the floor after `import pulumi`", "",
              f"{beyond_sdk:.2f}", "", INFO)  # fmt: skip
    return table, {**figure, "ratio": share, "ratio_beyond_sdk": beyond_sdk,
                   "requests": requests}  # fmt: skip


def run(quick: bool) -> Section:
    count = 1 if quick else 3
    examples = sorted(path.parent.name for path in EXAMPLES.glob("*/Pulumi.yaml"))
    if quick:
        examples = ["private-network"]  # the quickest: no readiness wait
    section = Section("run_command", TITLE)
    table = Table(
        ["example", "resources", "wall time", "up", "destroy", "the rest", "verdict"],
        caption="Median of the runs; the up and destroy as the command prints them.",
    )
    data: dict[str, dict[str, float]] = {}
    for example in examples:
        runs = [_once(example) for _ in range(count)]
        wall, up, down = (median([r[i] for r in runs]) for i in range(3))
        created = runs[0][3]
        table.add(example, created, f"{wall:.2f} s", f"{up:.2f} s", f"{down:.2f} s",
                  f"{wall - up - down:.2f} s", INFO)  # fmt: skip
        data[example] = {"wall": wall, "up": up, "destroy": down, "resources": created}
    section.tables.append(table)
    replayed, figures = _beside_replay(2 if quick else 12)
    section.tables.append(replayed)
    section.notes.append(
        f"{count} run(s) per example, each a fresh `python -m altostratus run`; the emulator's "
        "default readiness delays apply (a load balancer is available after 2 s, an object "
        "store after 1 s), as a newcomer sees them"
    )
    section.data = {**data, "replay": figures}
    return section
