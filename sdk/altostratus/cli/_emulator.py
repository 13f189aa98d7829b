"""``altostratus emulator``: run the local service.

The flags are declared here, where nothing of the ``emulator`` extra is imported, so that every
flag parses (and ``--help`` shows them) without the extra, and running then names the extra to
install instead of failing on "unrecognized arguments".
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from altostratus.cli._environment import add_flag, describe, switch
from altostratus.cli._failure import fail

#: The modules of the ``emulator`` extra; a missing one means the extra is not installed.
EXTRA_MODULES = ("cheroot", "werkzeug", "moto", "flask", "flask_cors", "jaraco", "more_itertools")
LOG_FORMATS = ("text", "json")


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


#: ``--state-dir`` is also ``ALTOSTRATUS_EMULATOR_STATE_DIR``, and so on for every flag.
ENV_PREFIX = "ALTOSTRATUS_EMULATOR_"


def configure_parser(
    parser: argparse.ArgumentParser, environ: Mapping[str, str] | None = None
) -> None:
    """The emulator's flags, each also read from its ``ALTOSTRATUS_EMULATOR_*`` variable (in
    `environ`, by default the process's environment): the one list of them."""
    parser.description = f"{parser.description or ''} {describe(ENV_PREFIX)}".strip()

    def flag(name: str, help: str, **settings: Any) -> None:
        add_flag(parser, name, prefix=ENV_PREFIX, help=help, environ=environ, **settings)

    flag("--host", "address to listen on", parse=_host, default="127.0.0.1")
    flag(
        "--public-host",
        "the name clients reach the emulator by, in the URLs it reports (an object store's "
        "endpoint); a container's host or its service's name",
        parse=_host,
        shown="--host",
    )
    flag(
        "--admin-from",
        "a network whose callers the admin endpoints answer besides loopback ones, such as a "
        "container's host through Docker's bridge (repeatable; in the variable, separated by "
        "spaces or commas)",
        parse=_admin_network,
        repeatable=True,
        shown="none",
        metavar="CIDR",
    )
    flag("--port", "API port, 1-65535, or 0 for a free one", parse=port_number, default=8787)
    flag("--s3-port", "S3 port, 1-65535, or 0 for a free one", parse=port_number, default=8788)
    flag("--api-key", "the default account's key", parse=_api_key, default="local-dev-key")
    flag("--time-scale", "emulated seconds per real second", parse=_time_scale, default=1.0)
    flag(
        "--lb-ready-seconds",
        "emulated seconds until a load balancer is available",
        parse=_not_negative,
        default=2.0,
    )
    flag(
        "--objectstore-ready-seconds",
        "emulated seconds until an object store is ready",
        parse=_not_negative,
        default=1.0,
    )
    flag(
        "--delete-seconds",
        "emulated seconds a deleted network, firewall, load balancer, reserved IP or "
        "object store stays in its deleting state (0: gone at once)",
        parse=_not_negative,
        default=0.0,
    )
    flag("--rate-limit", "requests per second per key", parse=_positive, shown="off")
    flag(
        "--state-dir",
        "keep the state in DIR across restarts (made if missing)",
        metavar="DIR",
        shown="in memory",
    )
    flag(
        "--remote-deliveries",
        "deliver webhooks to any host, not only to loopback receivers",
        parse=switch,
    )
    flag(
        "--strict",
        "refuse (400) request fields the service would ignore, instead of logging them",
        parse=switch,
    )
    flag(
        "--extra-region",
        "serve another region code (repeatable; in the variable, separated by spaces or "
        "commas); FEATURES, comma-separated, limits what it offers (by default every feature)",
        parse=_extra_region,
        repeatable=True,
        shown="none",
        metavar="CODE[:FEATURES]",
    )
    flag(
        "--seed",
        "start from the accounts and resources FILE declares (YAML or JSON); "
        "a reset returns to them",
        metavar="FILE",
    )
    flag(
        "--id-seed",
        "make every generated id, bucket name suffix, access key and secret a deterministic "
        "sequence of the integer N, started again by each reset (not with --state-dir)",
        parse=_integer,
        metavar="N",
        shown="random",
    )
    flag(
        "--quiet",
        "print no line per request (by default each API request prints one)",
        parse=switch,
    )
    flag(
        "--log-format",
        "the request lines as text or as one JSON object per line",
        parse=_log_format,
        default="text",
        metavar="{text,json}",
    )


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def _admin_network(text: str) -> str:
    try:
        from altostratus.emulator.control.endpoints import admin_network
    except ModuleNotFoundError:  # the emulator extra is missing: the command says so
        return text
    try:
        admin_network(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text.strip()


def _log_format(text: str) -> str:
    if text not in LOG_FORMATS:
        raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(LOG_FORMATS)}")
    return text


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
