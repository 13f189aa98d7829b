"""``python -m tests.differential``: every scenario through the runner and the real engine.

Prints a table (scenario, step, what each engine did, same or different) and writes it to
``docs/engine-differences.md``. Needs the real engine (``tools/engine/build``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from altostratus.emulator import Emulator
from tests.support.real_engine import built_engine

from .harness import Outcome, differences, run
from .programs import SCENARIOS

ROOT = Path(__file__).resolve().parents[2]


def _cell(outcome: Outcome) -> str:
    ops = ", ".join(f"{k.split(':', 1)[1]} {v}" for k, v in outcome.operations.items()) or "—"
    return ("**failed**: " if outcome.failed else "") + ops


def main() -> int:
    engine = built_engine()
    if engine is not None:
        os.environ["PATH"] = f"{engine}{os.pathsep}{os.environ['PATH']}"
    os.environ.setdefault("PULUMI_PYTHON_CMD", sys.executable)
    os.environ.setdefault("PULUMI_SKIP_UPDATE_CHECK", "true")
    lines = [
        "# The runner beside the real engine",
        "",
        "Written by `python -m tests.differential`: each program of `tests/differential/"
        "programs.py` through `altostratus.testing`'s runner and through the real Pulumi engine "
        "(`tools/engine/build`), against the emulator. Compared per step: the operation per "
        "resource, failure, whether ids were kept, stack outputs with their secretness and the "
        "secrets inside them, the state (each resource's outputs, nested values and nulls "
        "included, and its secret outputs), and what the service holds afterwards.",
        "",
        "| program | step | runner | engine | same |",
        "|---|---|---|---|---|",
    ]
    unexplained = 0
    details: list[str] = []
    with Emulator(lb_ready_seconds=0.2, objectstore_ready_seconds=0.1) as emulator:
        for scenario in SCENARIOS:
            runner = run(scenario, "runner", emulator)
            real = run(scenario, "pulumi", emulator)
            found = differences(runner, real)
            unexplained += bool(found)
            details += [f"- {scenario.name}, {d}" for d in found]
            for number, (ours, theirs) in enumerate(zip(runner, real, strict=True), start=1):
                same = ours.compared() == theirs.compared()
                lines.append(
                    f"| {scenario.name} | {number}. {ours.command} | {_cell(ours)} | "
                    f"{_cell(theirs)} | {'yes' if same else '**no**'} |"
                )
            print(f"{scenario.name}: {'same' if not found else f'{len(found)} differences'}")
    lines += ["", f"Programs that differ: {unexplained} of {len(SCENARIOS)}.", ""]
    if details:
        lines += ["## Differences", "", *details, ""]
    text = "\n".join(lines)
    (ROOT / "docs" / "engine-differences.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
