"""Tables, verdicts and the written report: what every section hands back, and how it is shown."""

from __future__ import annotations

import json
import os
import platform
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

PASS = "pass"
MISS = "miss"
INFO = "—"


def verdict(ok: bool) -> str:
    return PASS if ok else MISS


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    caption: str = ""

    def add(self, *cells: object) -> None:
        self.rows.append([str(cell) for cell in cells])

    def markdown(self) -> str:
        lines = [f"| {' | '.join(self.headers)} |", f"|{'---|' * len(self.headers)}"]
        lines += [f"| {' | '.join(row)} |" for row in self.rows]
        text = "\n".join(lines)
        return f"{self.caption}\n\n{text}" if self.caption else text

    def plain(self) -> str:
        grid = [self.headers, *self.rows]
        widths = [max(len(row[i]) for row in grid) for i in range(len(self.headers))]
        lines = [
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
            for row in grid
        ]
        lines.insert(1, "  ".join("-" * width for width in widths))
        text = "\n".join(line.rstrip() for line in lines)
        return f"{self.caption}\n{text}" if self.caption else text


@dataclass
class Section:
    """One section's outcome: tables to show, notes, and the figures as data (for tests)."""

    key: str
    title: str
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def verdicts(self) -> list[str]:
        """Every pass or miss of the columns headed "verdict…" (a row may have several)."""
        found = []
        for table in self.tables:
            columns = [i for i, h in enumerate(table.headers) if h.startswith("verdict")] or [-1]
            found += [row[i] for row in table.rows for i in columns if row[i] in (PASS, MISS)]
        return found


def machine() -> dict[str, str]:
    """The machine and the versions that shape the figures."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = ", ".join(
        f"{name} {metadata.version(name)}" for name in ("pulumi", "httpx", "pydantic", "moto")
    )
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count() or 1),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "system": f"{platform.system()} {platform.release()}",
        "packages": versions,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def print_section(section: Section) -> None:
    print(f"\n== {section.title} ==")
    for table in section.tables:
        print(table.plain())
        print()
    for note in section.notes:
        print(f"note: {note}")


def summary(sections: list[Section]) -> Table:
    table = Table(["section", "targets met", "verdict"])
    for section in sections:
        found = section.verdicts
        met = sum(1 for v in found if v == PASS)
        table.add(section.title, f"{met} of {len(found)}", verdict(met == len(found)))
    return table


def markdown(sections: list[Section], command: str, analysis: str) -> str:
    info = machine()
    out = [
        "# Benchmarks",
        "",
        "What the library costs, beside the floor the API allows and beside raw HTTP calls. "
        "Every comparison is a ratio measured side by side, interleaved, in one run.",
        "",
        f"- command: `{command}` (from the repository root)",
        f"- machine: {info['cpu']}, {info['cores']} cores, {info['system']}",
        f"- python: {info['python']}; {info['packages']}",
        f"- date: {info['date']}",
        "",
        "## Summary",
        "",
        summary(sections).markdown(),
    ]
    for section in sections:
        out += ["", f"## {section.title}", ""]
        for table in section.tables:
            out += [table.markdown(), ""]
        out += [f"- {note}" for note in section.notes]
    out += ["", analysis.strip(), ""]
    return "\n".join(out).replace("\n\n\n", "\n\n")


def as_json(sections: list[Section]) -> str:
    return json.dumps([asdict(section) for section in sections], indent=2)
