"""``altostratus emulator``: run the local service."""

from __future__ import annotations

import argparse
from typing import Any

from altostratus.cli._failure import fail


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "emulator",
        help="run the local emulator of the service (API and S3)",
        description="Run the local emulator of the whole service: the API and S3.",
    )
    try:
        from altostratus.emulator.__main__ import configure_parser
    except ImportError:
        parser.set_defaults(run=_missing_extra)
        return
    configure_parser(parser)
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from altostratus.emulator.__main__ import run

    return run(args)


def _missing_extra(args: argparse.Namespace) -> int:
    return fail("the emulator needs its extra: python -m pip install 'altostratus[emulator]'")
