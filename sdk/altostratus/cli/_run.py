"""``altostratus run``: a Pulumi project deployed end to end on an emulator in this process.

The flags are declared here, where neither Pulumi nor the ``emulator`` extra is imported, so
that ``--help`` works without them and a missing extra is named instead of failing to import.
"""

from __future__ import annotations

import argparse
from typing import Any

from altostratus.cli._emulator import EXTRA_MODULES, port_number
from altostratus.cli._failure import fail
from altostratus.testing.runner.launch import launch, stop

DESCRIPTION = """\
Deploy Pulumi projects (Python programs) end to end on a local emulator started in this
process: each resource's step as it happens, the stack outputs, then everything destroyed.
It runs with the library's own runner (altostratus.testing), not the Pulumi engine: no Pulumi
CLI, backend or passphrase is needed. Several projects run in order, and a later one's
StackReference("organization/<project>/dev") reads an earlier one's outputs."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "run",
        help="deploy a Pulumi project end to end on an embedded emulator",
        description=DESCRIPTION,
    )
    parser.add_argument(
        "projects", nargs="+", metavar="PROJECT_DIR", help="a Pulumi project directory"
    )
    parser.add_argument(
        "--config",
        metavar="KEY=VALUE",
        type=_setting,
        action="append",
        default=[],
        help="stack configuration, as `pulumi config set KEY VALUE` (repeatable)",
    )
    parser.add_argument("--preview", action="store_true", help="only preview: change nothing")
    parser.add_argument(
        "--keep",
        action="store_true",
        help="destroy nothing: keep serving the emulator until Ctrl-C, saying how to reach it",
    )
    parser.add_argument(
        "--show-secrets", action="store_true", help="print secret outputs in plain text"
    )
    parser.add_argument(
        "--port", type=port_number, default=0, help="API port (default: a free one)"
    )
    parser.add_argument(
        "--s3-port", type=port_number, default=0, help="S3 port (default: a free one)"
    )
    parser.set_defaults(run=_run)


def _setting(text: str) -> tuple[str, str]:
    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key.strip(), value


def _run(args: argparse.Namespace) -> int:
    # The provider process is started first, before the projects are read and the runner and
    # the emulator imported, so that its interpreter and imports run meanwhile.
    provider = launch()
    from altostratus.cli._project import NotAProject, Project

    try:
        projects = [Project.load(given) for given in args.projects]
    except NotAProject as error:
        stop(provider)
        return fail(str(error))
    try:
        from altostratus.cli._deploy import Options, deploy
    except ModuleNotFoundError as error:
        stop(provider)
        if (error.name or "").split(".")[0] not in EXTRA_MODULES:
            raise
        return fail(
            f"running a project needs the emulator's extra ({error.name} is missing): "
            "python -m pip install 'altostratus[emulator]'"
        )
    options = Options(
        config=dict(args.config),
        preview=args.preview,
        keep=args.keep,
        show_secrets=args.show_secrets,
        port=args.port,
        s3_port=args.s3_port,
        provider=provider,
    )
    return deploy(projects, options)
