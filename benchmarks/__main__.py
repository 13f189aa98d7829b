"""``python -m benchmarks``: run the sections, print their tables, write the report."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.report import Section, as_json, markdown, print_section, summary
from benchmarks.servers import ROOT

SECTIONS = {
    "requests": "benchmarks.requests_per_op",
    "overhead": "benchmarks.overhead",
    "stack": "benchmarks.stack",
    "readiness": "benchmarks.readiness",
    "startup": "benchmarks.startup",
    "s3": "benchmarks.s3",
    "growth": "benchmarks.growth",
    "service": "benchmarks.service",
    "testing": "benchmarks.testing_loop",
    "lookups": "benchmarks.lookups",
    "run": "benchmarks.run_command",
    "parallel": "benchmarks.parallel",
    "answers": "benchmarks.answers",
    "restarts": "benchmarks.restarts",
    "fixture": "benchmarks.fixture_session",
    "migrate": "benchmarks.migration",
    "engine": "benchmarks.engine_ops",
}
DEFAULT_OUTPUT = ROOT / "docs" / "benchmarks.md"
ANALYSIS = Path(__file__).with_name("analysis.md")


def _pick(text: str) -> list[str]:
    names = list(SECTIONS)
    picked = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        if item.isdigit() and 1 <= int(item) <= len(names):
            picked.append(names[int(item) - 1])
        elif item in SECTIONS:
            picked.append(item)
        else:
            raise argparse.ArgumentTypeError(
                f"unknown section {item!r}; pick from 1-{len(names)} or {', '.join(names)}"
            )
    return picked


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Measure what altostratus costs, beside the API's floor and raw HTTP.",
    )
    made.add_argument(
        "--quick", action="store_true", help="tiny counts: a smoke run of every section"
    )
    made.add_argument(
        "--sections",
        type=_pick,
        default=list(SECTIONS),
        metavar="LIST",
        help=f"comma-separated numbers or names ({', '.join(SECTIONS)}); default all",
    )
    made.add_argument(
        "--output",
        type=Path,
        help="where to write the Markdown report (default docs/benchmarks.md for a full run of "
        "every section; a quick or partial run writes nothing unless given)",
    )
    made.add_argument("--json", type=Path, help="also write the figures as JSON")
    return made


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    sections: list[Section] = []
    for name in args.sections:
        started = time.monotonic()
        module = importlib.import_module(SECTIONS[name])
        section: Section = module.run(args.quick)
        section.notes.append(f"section time {time.monotonic() - started:.1f} s")
        print_section(section)
        sections.append(section)
    print("\n== Summary ==")
    print(summary(sections).plain())
    output = args.output
    if output is None and not args.quick and args.sections == list(SECTIONS):
        output = DEFAULT_OUTPUT
    command = "python -m benchmarks" + (" --quick" if args.quick else "")
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(markdown(sections, command, ANALYSIS.read_text()))
        print(f"\nwrote {output}")
    if args.json is not None:
        args.json.write_text(as_json(sections))
    return 0


if __name__ == "__main__":
    sys.exit(main())
