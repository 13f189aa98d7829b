"""``altostratus migrate``: a bridged-provider stack or a Terraform state as a program that adopts
its resources (see ``altostratus.migrate``)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from altostratus.cli._failure import fail

DESCRIPTION = """\
Write a Pulumi program that adopts, with `adopt`, every network, firewall (its rules too),
reserved IP, object store and credential of a stack of the service's bridged Pulumi provider
(`pulumi stack export`, with or without --show-secrets) or of a Terraform state (`terraform show
-json`), and a report of what it could not carry. Secrets of the source are never written. The
command does not call the service: the program's `pulumi up` adopts the records. With
--front-end plugin the program declares them through the provider plugin."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "migrate",
        help="write a program adopting a bridged-provider stack's or a Terraform state's resources",
        description=DESCRIPTION,
    )
    parser.add_argument(
        "source",
        metavar="STATE_JSON",
        help="`pulumi stack export` or `terraform show -json` output; `-` reads standard input",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        default=".",
        help="the project folder to write into, made when missing (default: this folder)",
    )
    parser.add_argument(
        "--project",
        metavar="NAME",
        type=_project_name,
        help="the project's name in a new Pulumi.yaml (default: the folder's name)",
    )
    parser.add_argument("--force", action="store_true", help="replace an existing __main__.py")
    parser.add_argument(
        "--front-end",
        choices=("dynamic", "plugin"),
        default="dynamic",
        help="declare the resources as dynamic resources (`import altostratus`, the default) or "
        "through the provider plugin (`import altostratus.plugin`)",
    )
    parser.set_defaults(run=_run)


def _project_name(text: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a project name: letters, digits, '-', '_' and '.', up to 100"
        )
    return text


def _read(given: str) -> str:
    if given == "-":
        return sys.stdin.read()
    return Path(given).read_text(encoding="utf-8")


def _run(args: argparse.Namespace) -> int:
    # Imported here: every other command of the program would pay for it.
    from altostratus._terminal import escaped
    from altostratus.migrate import (
        PROGRAM,
        ProgramExists,
        SourceError,
        migrate,
        read_source,
        report_text,
        write_project,
    )

    try:
        text = _read(args.source)
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not UTF-8 text"
        return fail(escaped(f"cannot read {args.source}: {reason}"))
    try:
        migration = migrate(read_source(text))
    except SourceError as error:
        where = "standard input" if args.source == "-" else args.source
        return fail(escaped(f"{where}: {error}"))
    if not migration.declarations:
        return fail(
            f"{escaped(args.source)} holds no network, firewall, reserved IP, object store or "
            "credential with an id: nothing to adopt, nothing written"
        )
    try:
        written = write_project(
            migration,
            Path(args.out),
            project=args.project,
            replace=args.force,
            front_end=args.front_end,
        )
    except ProgramExists as error:
        return fail(escaped(str(error)))
    except OSError as error:
        return fail(escaped(f"cannot write into {args.out}: {error.strerror or error}"))
    # escaped line by line
    print(report_text(migration, PROGRAM, front_end=args.front_end), end="")
    print(escaped(f"\nWrote {', '.join(str(path) for path in written)}."))
    return 0
