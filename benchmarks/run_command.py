"""Section 11: ``altostratus run`` on every example. The wall time of the command as a newcomer
types it (a fresh interpreter, the embedded emulator with its default readiness delays, the
provider process, up and destroy), and how it splits: the up and the destroy as the command
reports them, and the rest (start-up, imports, emulator and provider process)."""

from __future__ import annotations

import math
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.measure import interleave, median, timed
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


def _timed(command: list[str]) -> float:
    return timed(
        lambda: subprocess.run(command, check=True, capture_output=True, timeout=300, cwd=ROOT)
    )


def _beside_replay(count: int) -> tuple[Table, dict[str, float]]:
    """``altostratus run`` of one example beside a fresh process replaying its requests on the
    same embedded emulator (``benchmarks.run_replay``), interleaved."""
    with tempfile.TemporaryDirectory() as folder:
        recorded = Path(folder) / "exchanges.json"
        requests = record(EXAMPLES / REPLAYED, recorded)
        command = [sys.executable, "-m", "altostratus", "run", str(EXAMPLES / REPLAYED)]
        raw = [sys.executable, "-m", "benchmarks.run_replay", str(recorded)]
        pair = interleave(lambda: _timed(command), lambda: _timed(raw), count, math.inf)
    run_time, raw_time = median(pair.measured), median(pair.baseline)
    share = pair.ratio
    table = Table(
        ["example", "requests", "altostratus run", "raw replay process", "ratio", "target",
         "verdict"],
        caption="Whole processes, interleaved: the command, and a fresh interpreter that starts "
        "the same embedded emulator and sends the same requests with bare httpx.",
    )  # fmt: skip
    table.add(REPLAYED, requests, f"{run_time:.2f} s", f"{raw_time:.2f} s", f"{share:.2f}",
              f"≤ {TARGET:.1f}", verdict(share <= TARGET))  # fmt: skip
    return table, {"run": run_time, "raw": raw_time, "ratio": share}


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
    replayed, figures = _beside_replay(2 if quick else 10)
    section.tables.append(replayed)
    section.notes.append(
        f"{count} run(s) per example, each a fresh `python -m altostratus run`; the emulator's "
        "default readiness delays apply (a load balancer is available after 2 s, an object "
        "store after 1 s), as a newcomer sees them"
    )
    section.data = {**data, "replay": figures}
    return section
