"""The ``altostratus`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from altostratus._version import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="altostratus",
        description="Pulumi resources for the service's API, and a local emulator of it.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"altostratus {__version__}")
    parser.add_subparsers(dest="command", metavar="COMMAND")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
