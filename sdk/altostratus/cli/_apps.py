"""The application commands: ``detect``, ``deploy`` (and ``app deploy``), ``environments`` and
``app list|status|logs|env list|env set|open|redeploy|remove``. App commands name their
application with ``--app_name`` only, asked for at a terminal when left out."""

from __future__ import annotations

import argparse
import json
import time
import webbrowser
from pathlib import Path
from typing import Any

from altostratus.cli._detect import detect, tree_digest
from altostratus.cli._rules import (
    Invocation,
    Refused,
    add_app_name,
    add_read,
    add_service_flags,
    columns,
    command,
    fields_text,
)

#: Real seconds between two reads of the logs while following them.
FOLLOW_SECONDS = 2.0


def register(commands: Any) -> None:
    parser = commands.add_parser("detect", help="identify the application in the current directory")
    add_read(parser)
    parser.set_defaults(run=detect_command)

    parser = commands.add_parser(
        "deploy", help="detect, push and deploy the current directory (as `app deploy`)"
    )
    _deploy_flags(parser)

    parser = commands.add_parser(
        "environments",
        help="list the application-hosting environments, or create one with --create",
    )
    add_read(parser)
    add_service_flags(parser)
    parser.add_argument("--create", metavar="NAME", help="create the environment NAME")
    parser.add_argument("--region", help="the region of the environment created")
    parser.set_defaults(run=environments)

    app = commands.add_parser("app", help="the organization's applications")
    actions = app.add_subparsers(dest="action", metavar="ACTION", required=True)
    _deploy_flags(
        actions.add_parser("deploy", help="detect, push and deploy the current directory")
    )
    _action(actions, "list", "the organization's applications", app_list, read=True, named=False)
    _action(actions, "status", "phase, URL, image and recent builds", app_status, read=True)
    parser = _action(
        actions, "logs", "stream the runtime logs (--build: the build's)", app_logs, read=True
    )
    parser.add_argument("--build", action="store_true", help="the latest build's logs")
    parser.add_argument("--no-follow", action="store_true", help="print the lines so far and stop")
    env = actions.add_parser("env", help="the application's variables")
    env_actions = env.add_subparsers(dest="env_action", metavar="ACTION", required=True)
    _action(env_actions, "list", "the application's variables", env_list, read=True)
    parser = _action(env_actions, "set", "set variables; a redeploy follows", env_set)
    parser.add_argument(
        "--vars",
        action="append",
        required=True,
        metavar="K=v",
        help="a variable to set (repeat it, or separate with commas: A=1,B=2)",
    )
    _action(actions, "open", "print and open the public URL", app_open)
    _action(actions, "redeploy", "rebuild from the head of the connected branch", app_redeploy)
    _action(actions, "remove", "delete the application", app_remove)


def _action(
    actions: Any, name: str, help: str, run: Any, *, read: bool = False, named: bool = True
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = actions.add_parser(name, help=help, description=help)
    if named:
        add_app_name(parser)
    if read:
        add_read(parser)
    add_service_flags(parser)
    parser.set_defaults(run=run)
    return parser


def _deploy_flags(parser: argparse.ArgumentParser) -> None:
    add_app_name(parser)
    add_read(parser)
    add_service_flags(parser)
    parser.add_argument("--environment", help="the hosting environment (default: default)")
    parser.set_defaults(run=deploy)


def _dump(record: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = record.model_dump(mode="json", exclude_none=True)
    return dumped


@command
def detect_command(invocation: Invocation) -> int:
    folder = Path.cwd()
    found = detect(folder)
    if found is None:
        raise Refused(
            f"no application in {folder}: add a Dockerfile, go.mod, package.json, "
            "pyproject.toml or requirements.txt"
        )
    invocation.show(found.describe(), lambda _: f"{found.language} application ({found.evidence})")
    return 0


@command
def deploy(invocation: Invocation) -> int:
    folder = Path.cwd()
    found = detect(folder)
    if found is None:
        raise Refused(
            f"no application in {folder} to deploy: add a Dockerfile, go.mod, package.json, "
            "pyproject.toml or requirements.txt (see `cli detect`)"
        )
    name = invocation.app_name(default=found.name)
    org = invocation.org()
    digest, files = tree_digest(folder)
    with invocation.client() as client:
        app = client.apps.deploy(
            org,
            name,
            runtime=found.runtime,
            digest=digest,
            files=files,
            environment=invocation.args.environment,
        )
    build = app.builds[0].number if app.builds else 1
    text = (
        f"Deploying {name} ({found.language}, {files} files), build #{build}: {app.phase}. "
        f"{app.url}\nFollow it with `cli app logs --app_name {name} --build`."
    )
    invocation.show(_dump(app), lambda _: text)
    return 0


@command
def environments(invocation: Invocation) -> int:
    org = invocation.org()
    args = invocation.args
    with invocation.client() as client:
        if args.create:
            made = client.app_environments.create(org, args.create, region=args.region)
            text = f"Created the environment {made.name} in {made.region} ({made.cluster})."
            invocation.show(_dump(made), lambda _: text)
            return 0
        if args.region:
            raise Refused("--region goes with --create NAME")
        found = [_dump(e) for e in client.app_environments.list(org)]
    names = ("name", "region", "cluster", "built_in")
    invocation.show(found, lambda rows: columns(rows, names))
    return 0


@command
def app_list(invocation: Invocation) -> int:
    org = invocation.org()
    with invocation.client() as client:
        found = [_dump(a) for a in client.apps.list(org)]
    names = ("name", "environment", "runtime", "phase", "url")
    invocation.show(found, lambda rows: columns(rows, names))
    return 0


@command
def app_status(invocation: Invocation) -> int:
    name = invocation.app_name()
    org = invocation.org()
    with invocation.client() as client:
        app = client.apps.get(org, name)

    def text(_: Any) -> str:
        head = {
            "name": app.name,
            "phase": app.phase,
            "url": app.url,
            "image": app.image,
            "environment": app.environment,
        }
        builds = [b.model_dump(exclude_none=True) for b in app.builds]
        table = columns(builds, ("number", "status", "reason", "started_at"))
        return f"{fields_text(head)}\n\nrecent builds\n{table}"

    invocation.show(_dump(app), text)
    return 0


@command
def app_logs(invocation: Invocation) -> int:
    name = invocation.app_name()
    org = invocation.org()
    args = invocation.args
    shown: set[tuple[str, str]] = set()
    with invocation.client() as client:
        while True:
            for line in client.apps.logs(org, name, build=args.build):
                key = (line.at, line.message)
                if key not in shown:
                    shown.add(key)
                    if args.json:  # each line's raw record, one per line (JSON Lines)
                        print(json.dumps(_dump(line), sort_keys=True), flush=True)
                    else:
                        print(f"{line.at} {line.message}", flush=True)
            if args.no_follow:
                return 0
            time.sleep(FOLLOW_SECONDS)


@command
def env_list(invocation: Invocation) -> int:
    name = invocation.app_name()
    org = invocation.org()
    with invocation.client() as client:
        found = client.apps.variables(org, name)
    invocation.show(
        found, lambda v: "\n".join(f"{k}={v[k]}" for k in sorted(v)) or "(no variables)"
    )
    return 0


def _variables(given: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for item in given:
        for pair in item.split(","):
            key, equals, value = pair.partition("=")
            if not equals or not key.strip():
                raise Refused(f"--vars {pair!r}: give NAME=value (A=1, or A=1,B=2)")
            found[key.strip()] = value
    return found


@command
def env_set(invocation: Invocation) -> int:
    variables = _variables(invocation.args.vars)
    name = invocation.app_name()
    org = invocation.org()
    with invocation.client() as client:
        app = client.apps.set_variables(org, name, variables)
    build = app.builds[0].number if app.builds else "?"
    text = f"Set {', '.join(sorted(variables))} on {name}; redeploying (build #{build})."
    invocation.show(_dump(app), lambda _: text)
    return 0


@command
def app_open(invocation: Invocation) -> int:
    name = invocation.app_name()
    org = invocation.org()
    with invocation.client() as client:
        app = client.apps.get(org, name)
    if not app.url:
        raise Refused(f"{name} has no public URL yet; see `cli app status --app_name {name}`")
    print(app.url)
    if invocation.interactive:
        webbrowser.open(app.url)
    return 0


@command
def app_redeploy(invocation: Invocation) -> int:
    name = invocation.app_name()
    org = invocation.org()
    with invocation.client() as client:
        app = client.apps.redeploy(org, name)
    build = app.builds[0].number if app.builds else "?"
    print(f"Redeploying {name}: build #{build}, {app.phase}.")
    return 0


@command
def app_remove(invocation: Invocation) -> int:
    name = invocation.app_name()
    org = invocation.org()
    if not invocation.confirm(f"Delete the application {name!r} of {org}?"):
        print("Nothing removed.")
        return 0
    with invocation.client() as client:
        client.apps.delete(org, name)
    print(f"Removed {name}: its manifest and namespace are pruned.")
    return 0
