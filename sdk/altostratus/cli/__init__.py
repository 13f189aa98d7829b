"""The ``altostratus`` command, also installed as ``cli``, the service's command-line client.

Both names run the one parser: every command under either name (``cli quota`` and
``altostratus quota`` are the same command). It follows the service CLI's rules, kept in
``_rules``: long flags only, ``--json`` on every read, no prompt without a terminal or with
``--yes``, exit status 0 on success and 1 on failure, and one actionable line on failure.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable, Sequence
from typing import Any

from altostratus._version import package_version
from altostratus.cli import (
    _account,
    _apps,
    _emulator,
    _mcp,
    _migrate,
    _platform,
    _plugin,
    _quota,
    _run,
    _webhooks,
)
from altostratus.cli._failure import PROGRAM, fail
from altostratus.cli._rules import short_flag

Command = Callable[[argparse.Namespace], int]


class _Parser(argparse.ArgumentParser):
    """An argument parser that knows long flags only and fails with one line and status 1."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("add_help", False)
        kwargs.setdefault("allow_abbrev", False)
        kwargs.setdefault("prefix_chars", "-")
        super().__init__(*args, **kwargs)
        self.add_argument("--help", action="help", help="show this help and exit")

    def add_argument(self, *names: str, **kwargs: Any) -> argparse.Action:
        shorts = [n for n in names if n.startswith("-") and not n.startswith("--")]
        if shorts:
            raise ValueError(f"only long flags exist: {shorts}")
        return super().add_argument(*names, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(1, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _Version(argparse.Action):
    """``--version``, whose text is read only when asked for (see ``_version``)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        print(f"{parser.prog} {package_version()}")
        parser.exit()


def build_parser(prog: str = "altostratus") -> argparse.ArgumentParser:
    parser = _Parser(
        prog=prog,
        description=(
            "The service's command-line client, Pulumi resources for the service's API, and a "
            "local emulator of it."
        ),
    )
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in (
        _account,
        _apps,
        _quota,
        _mcp,
        _platform,
        _emulator,
        _run,
        _webhooks,
        _migrate,
        _plugin,
    ):
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "altostratus") -> int:
    """Run the command ``argv`` (default: the process's arguments) as ``prog`` names it."""
    PROGRAM["name"] = prog
    arguments = sys.argv[1:] if argv is None else list(argv)
    short = short_flag(arguments)
    if short is not None:
        return fail(f"{short}: short flags do not exist; use the long flag (see {prog} --help)")
    parser = build_parser(prog)
    args = parser.parse_args(arguments)
    run: Command | None = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 0
    try:
        return run(args)
    except KeyboardInterrupt:
        return 0


def entry() -> None:
    """The command's process (``altostratus`` and ``python -m altostratus``): ``main``, then
    an exit that does not sweep the whole heap again.

    After a run, the interpreter's teardown spends about 0.05 to 0.1 s collecting what Pulumi,
    gRPC and the emulator loaded; frozen, those objects are left to the process's end. Exit
    handlers still run and open files are still flushed and closed.
    """
    code = main()
    gc.freeze()
    sys.exit(code)


def cli_entry() -> None:
    """The ``cli`` command: the same commands, named as the service's documentation names
    them (``cli quota``)."""
    code = main(prog="cli")
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    entry()
