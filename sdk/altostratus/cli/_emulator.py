"""``altostratus emulator``: run the local service.

The flags are declared here, where nothing of the ``emulator`` extra is imported, so that every
flag parses (and ``--help`` shows them) without the extra, and running then names the extra to
install instead of failing on "unrecognized arguments".
"""

from __future__ import annotations

import argparse
from typing import Any

from altostratus.cli._failure import fail

#: The modules of the ``emulator`` extra; a missing one means the extra is not installed.
EXTRA_MODULES = ("cheroot", "werkzeug", "moto", "flask", "flask_cors", "jaraco", "more_itertools")


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "emulator",
        help="run the local emulator of the service (API and S3)",
        description="Run the local emulator of the whole service: the API and S3.",
    )
    configure_parser(parser)
    parser.set_defaults(run=_run)


def _positive(text: str) -> float:
    value = _number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be a positive number")
    return value


def _time_scale(text: str) -> float:
    value = _number(text)
    if not 0.001 <= value <= 10_000:
        raise argparse.ArgumentTypeError("must be from 0.001 to 10000")
    return value


def _not_negative(text: str) -> float:
    value = _number(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError("must be a finite number")
    return value


def port_number(text: str) -> int:
    """A port flag's value: 1 to 65535, or 0 for a free one."""
    try:
        value = int(text, 10)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a port: give 1 to 65535, or 0 for a free one"
        )
    return value


def _api_key(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("must not be empty")
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise argparse.ArgumentTypeError("must not hold spaces or control characters")
    return text


def _host(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("must not be empty (127.0.0.1 serves this machine only)")
    return text


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", type=_host, default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--port", type=port_number, default=8787, help="API port, 1-65535 (0 picks a free one)"
    )
    parser.add_argument(
        "--s3-port", type=port_number, default=8788, help="S3 port, 1-65535 (0 picks a free one)"
    )
    parser.add_argument(
        "--api-key", type=_api_key, default="local-dev-key", help="the default account's key"
    )
    parser.add_argument(
        "--time-scale",
        type=_time_scale,
        default=1.0,
        help="emulated seconds per real second",
    )
    parser.add_argument(
        "--lb-ready-seconds",
        type=_not_negative,
        default=2.0,
        help="emulated seconds until a load balancer is available",
    )
    parser.add_argument(
        "--objectstore-ready-seconds",
        type=_not_negative,
        default=1.0,
        help="emulated seconds until an object store is ready",
    )
    parser.add_argument(
        "--delete-seconds",
        type=_not_negative,
        default=0.0,
        help="emulated seconds a deleted network, firewall, load balancer, reserved IP or "
        "object store stays in its deleting state (default 0: gone at once)",
    )
    parser.add_argument(
        "--rate-limit",
        type=_positive,
        default=None,
        help="requests per second per key (off by default)",
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        default=None,
        help="keep the state in DIR across restarts (made if missing); default: in memory",
    )
    parser.add_argument(
        "--remote-deliveries",
        action="store_true",
        help="deliver webhooks to any host, not only to loopback receivers",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="refuse (400) request fields the service would ignore, instead of logging them",
    )
    parser.add_argument(
        "--extra-region",
        action="append",
        default=[],
        metavar="CODE[:FEATURES]",
        type=_extra_region,
        help="serve another region code (repeatable); FEATURES, comma-separated, limits what "
        "it offers (default: every feature)",
    )
    parser.add_argument(
        "--seed",
        metavar="FILE",
        default=None,
        help="start from the accounts and resources FILE declares (YAML or JSON); "
        "a reset returns to them",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="print no line per request (by default each API request prints one)",
    )
    parser.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="the request lines as text (default) or one JSON object per line",
    )


def _extra_region(text: str) -> str:
    try:
        from altostratus.emulator.vocabulary import extra_region
    except ModuleNotFoundError:  # the emulator extra is missing: the command says so
        return text
    try:
        extra_region(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _run(args: argparse.Namespace) -> int:
    try:
        from altostratus.cli._serve import run
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in EXTRA_MODULES:
            raise
        return fail(
            f"the emulator needs its extra ({error.name} is missing): "
            "python -m pip install 'altostratus[emulator]'"
        )
    return run(args)
