"""The Command-line client guide's command table is the parser's: every command of the client,
each with exactly its own flags (those every service command takes are documented once); and
the command line page's table gives each library command exactly the flags of its help."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from altostratus.cli import build_parser

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "command-line-client.md"
#: The library's own commands, documented in docs/cli.md.
ELSEWHERE = {"emulator", "run", "webhooks", "migrate", "plugin"}
#: The flags the guide documents once, above its table.
COMMON = {"--help", "--api-url", "--org", "--yes"}
#: The spec's commands (its two tables), which the guide and the parser must both have.
SPEC = {
    "setup", "auth", "logout", "whoami", "detect", "deploy", "app deploy", "app list",
    "app status", "app logs", "app env list", "app env set", "app open", "app redeploy",
    "app remove", "environments", "regions", "quota", "mcp", "update", "platform-env list",
    "platform-env get", "platform-env create", "platform-env attach", "platform-env detach",
    "platform-env delete", "cluster list", "platform-app register", "platform-app list",
    "platform-app get", "platform-app deploy", "platform-app-deployment list",
    "platform-app-deployment get",
}  # fmt: skip


def commands(parser: argparse.ArgumentParser, path: str = "") -> dict[str, set[str]]:
    """Each leaf command by its words, with its flags (and ``NAME`` for a bare target)."""
    found: dict[str, set[str]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                found.update(commands(child, f"{path} {name}".strip()))
    if not found and path:
        flags = {o for a in parser._actions for o in a.option_strings} - COMMON
        if any(a.dest == "names" for a in parser._actions):
            flags.add("NAME")
        found[path] = flags
    return found


def documented() -> dict[str, set[str]]:
    rows: dict[str, set[str]] = {}
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        row = re.match(r"^\| `cli ([a-z -]+)` \|([^|]*)\|", line)
        if row:
            rows[row.group(1)] = set(re.findall(r"`(--[a-z_-]+|NAME)`", row.group(2)))
    return rows


def test_the_guide_lists_every_command_with_its_flags() -> None:
    parsed = {
        name: flags
        for name, flags in commands(build_parser("cli")).items()
        if name.split()[0] not in ELSEWHERE
    }
    assert documented() == parsed


def test_every_command_of_the_spec_is_in_the_guide_and_the_help() -> None:
    assert set(documented()) == SPEC
    assert {n for n in commands(build_parser("cli")) if n.split()[0] not in ELSEWHERE} == SPEC


COMMAND_LINE = GUIDE.parent / "cli.md"


def test_the_command_line_page_gives_each_library_command_its_flags() -> None:
    """docs/cli.md's table: each library command's synopsis names exactly the flags its
    ``--help`` has (``emulator [flags]`` points to its own guide)."""
    parsers: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    parsers[f"{path} {name}".strip()] = child
                    walk(child, f"{path} {name}".strip())

    walk(build_parser("altostratus"), "")
    checked = set()
    for line in COMMAND_LINE.read_text(encoding="utf-8").splitlines():
        row = re.match(r"^\| `altostratus ([^`]*)` \|", line)
        if not row or "[flags]" in row.group(1):
            continue
        words = row.group(1).split()
        name = max(
            (" ".join(words[:n]) for n in range(1, len(words) + 1)),
            key=lambda prefix: (prefix in parsers, len(prefix)),
        )
        flags = {o for a in parsers[name]._actions for o in a.option_strings} - {"--help"}
        assert set(re.findall(r"--[a-z][a-z0-9-]*", row.group(1))) == flags, name
        checked.add(name)
    assert {"run", "migrate", "quota", "webhooks listen", "plugin install"} <= checked
