"""The documentation as the tests read it: the README and the guides under ``docs/``, their
sections by heading, and their code blocks, each with what the line above it says of it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
"""Every page whose blocks are run or marked: the README and the guides (not the API reference,
which mkdocstrings builds from the docstrings)."""

_HEADING = re.compile(r"^(#+) (.*)$")
_FENCE = re.compile(r"^```(\w*)\s*$")
_MARKER = re.compile(r"^<!-- (.*?) -->$")


def page(name: str) -> str:
    """A page's text, by its path from the repository's root (``docs/resources.md``)."""
    return (ROOT / name).read_text(encoding="utf-8")


def section(name: str, heading: str) -> str:
    """The text under ``heading`` (the whole line, ``## Network``) up to the next heading of the
    same level or above, the heading included; headings inside code blocks do not count."""
    lines = page(name).split("\n")
    start = lines.index(heading)
    level = len(heading) - len(heading.lstrip("#"))
    fenced = False
    for end in range(start + 1, len(lines)):
        if lines[end].startswith("```"):
            fenced = not fenced
        found = None if fenced else _HEADING.match(lines[end])
        if found and len(found.group(1)) <= level:
            return "\n".join(lines[start:end]) + "\n"
    return "\n".join(lines[start:]) + "\n"


def table(text: str, header: str) -> list[list[str]]:
    """The rows of the table whose header line is ``header``, each as its cells' text."""
    rows = text.split(header + "\n", 1)[1].split("\n\n", 1)[0].strip().split("\n")[1:]
    return [[cell.strip() for cell in row.strip().strip("|").split(" | ")] for row in rows]


@dataclass(frozen=True)
class Block:
    """A fenced code block of a page."""

    page: str
    heading: str
    """The heading line it stands under."""
    language: str
    text: str
    marker: str | None
    """What the HTML comment on the line right above it says (``not run: why``), if any."""
    line: int

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line} ({self.heading.lstrip('# ')})"


def blocks(path: Path) -> list[Block]:
    """Every fenced block of a page, in order."""
    name = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").split("\n")
    found: list[Block] = []
    heading, opened = "", None
    for number, line in enumerate(lines, 1):
        fence = _FENCE.match(line)
        if opened is None and fence:
            opened = (number, fence.group(1))
        elif opened is not None and line.startswith("```"):
            start, language = opened
            above = _MARKER.match(lines[start - 2]) if start >= 2 else None
            text = "\n".join(lines[start : number - 1]) + "\n"
            marker = above.group(1) if above else None
            found.append(Block(name, heading, language, text, marker, start))
            opened = None
        elif opened is None and (title := _HEADING.match(line)):
            heading = line if title else heading
    return found
