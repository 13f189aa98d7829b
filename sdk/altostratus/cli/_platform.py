"""The platform commands on ``/api/v1``: ``platform-env``, ``cluster``, ``platform-app`` and
``platform-app-deployment``. Each works in the organization's namespace: ``{ns}`` and ``{org}``
are the organization the rules resolve (``--org``, ``CLI_ORG``, the stored default, a prompt)."""

from __future__ import annotations

import argparse
from typing import Any

from altostratus.cli._rules import (
    Invocation,
    add_read,
    add_service_flags,
    add_target,
    columns,
    command,
    fields_text,
    target,
)

ENVIRONMENT = "platform environment"
APPLICATION = "platform application"


def register(commands: Any) -> None:
    _environments(commands)
    _clusters(commands)
    _applications(commands)
    _deployments(commands)


def _group(commands: Any, name: str, help: str) -> Any:
    parser = commands.add_parser(name, help=help, description=help)
    return parser.add_subparsers(dest="action", metavar="ACTION", required=True)


def _command(
    actions: Any, name: str, help: str, run: Any, *, read: bool = False
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = actions.add_parser(name, help=help, description=help)
    if read:
        add_read(parser)
    add_service_flags(parser)
    parser.set_defaults(run=run)
    return parser


def _record(payload: dict[str, Any]) -> str:
    return fields_text(payload)


def _dump(record: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = record.model_dump(mode="json", exclude_none=True)
    return dumped


# platform-env


def _environments(commands: Any) -> None:
    actions = _group(commands, "platform-env", "the organization's platform environments")
    _command(actions, "list", "list the platform environments", env_list, read=True)
    parser = _command(actions, "get", "show a platform environment", env_get, read=True)
    add_target(parser, ENVIRONMENT)
    parser = _command(actions, "create", "create a platform environment", env_create, read=True)
    add_target(parser, ENVIRONMENT)
    parser.add_argument("--description", help="what the environment is for")
    parser.add_argument(
        "--cluster",
        action="append",
        default=[],
        metavar="CLUSTER",
        help="a cluster to attach (repeat it for more; see `cli cluster list`)",
    )
    for name, run in (("attach", env_attach), ("detach", env_detach)):
        verb = "attach a cluster to" if name == "attach" else "detach a cluster from"
        parser = _command(actions, name, f"{verb} a platform environment", run, read=True)
        add_target(parser, ENVIRONMENT)
        parser.add_argument("--cluster", required=True, help="the cluster's name")
    parser = _command(actions, "delete", "delete a platform environment", env_delete)
    add_target(parser, ENVIRONMENT)


ENV_COLUMNS = ("name", "namespace", "clusters", "description")


@command
def env_list(invocation: Invocation) -> int:
    """Every environment of the key's organization: the path names none."""
    with invocation.client() as client:
        found = [_dump(e) for e in client.platform_environments.list()]
    invocation.show(found, lambda rows: columns(rows, ENV_COLUMNS))
    return 0


@command
def env_get(invocation: Invocation) -> int:
    name = target(invocation.args, ENVIRONMENT)
    org = invocation.org()
    with invocation.client() as client:
        found = client.platform_environments.get(org, name)
    invocation.show(_dump(found), _record)
    return 0


@command
def env_create(invocation: Invocation) -> int:
    name = target(invocation.args, ENVIRONMENT)
    org = invocation.org()
    args = invocation.args
    with invocation.client() as client:
        made = client.platform_environments.create(
            org, name, description=args.description, clusters=args.cluster or None
        )
    invocation.show(_dump(made), lambda _: f"Created the platform environment {name!r} in {org}.")
    return 0


@command
def env_attach(invocation: Invocation) -> int:
    return _attach(invocation, attach=True)


@command
def env_detach(invocation: Invocation) -> int:
    return _attach(invocation, attach=False)


def _attach(invocation: Invocation, *, attach: bool) -> int:
    name = target(invocation.args, ENVIRONMENT)
    cluster: str = invocation.args.cluster
    org = invocation.org()
    with invocation.client() as client:
        environments = client.platform_environments
        if attach:
            changed = environments.attach(org, name, cluster)
        else:
            changed = environments.detach(org, name, cluster)
    shown = ", ".join(changed.clusters) or "none"
    invocation.show(_dump(changed), lambda _: f"{name}: clusters {shown}")
    return 0


@command
def env_delete(invocation: Invocation) -> int:
    name = target(invocation.args, ENVIRONMENT)
    org = invocation.org()
    if not invocation.confirm(f"Delete the platform environment {name!r} of {org}?"):
        print("Nothing deleted.")
        return 0
    with invocation.client() as client:
        client.platform_environments.delete(org, name)
    print(f"Deleted the platform environment {name!r} of {org}.")
    return 0


# cluster


def _clusters(commands: Any) -> None:
    actions = _group(commands, "cluster", "the organization's managed clusters")
    _command(actions, "list", "list the managed clusters", cluster_list, read=True)


@command
def cluster_list(invocation: Invocation) -> int:
    org = invocation.org()
    with invocation.client() as client:
        found = [_dump(c) for c in client.clusters.list(org)]
    names = ("name", "region", "kubernetes_version", "status")
    invocation.show(found, lambda rows: columns(rows, names))
    return 0


# platform-app


def _applications(commands: Any) -> None:
    actions = _group(commands, "platform-app", "the organization's platform applications")
    parser = _command(
        actions, "register", "register a repository as a platform application", app_register
    )
    add_target(parser, APPLICATION)
    add_read(parser)
    parser.add_argument("--repository", required=True, help="the repository's http(s) URL")
    parser.add_argument("--branch", help="the branch deployed (default: main)")
    _command(actions, "list", "list the platform applications", app_list, read=True)
    parser = _command(actions, "get", "show a platform application", app_get, read=True)
    add_target(parser, APPLICATION)
    parser = _command(
        actions, "deploy", "deploy a platform application to an environment", app_deploy
    )
    add_target(parser, APPLICATION)
    add_read(parser)
    parser.add_argument("--environment", required=True, help="the platform environment")
    parser.add_argument("--version", help="the commit or tag (default: the branch's head)")


APP_COLUMNS = ("name", "namespace", "repository", "branch")


@command
def app_register(invocation: Invocation) -> int:
    name = target(invocation.args, APPLICATION)
    org = invocation.org()
    args = invocation.args
    with invocation.client() as client:
        made = client.platform_applications.register(
            org, name, repository=args.repository, branch=args.branch
        )
    invocation.show(_dump(made), lambda _: f"Registered {name!r} ({made.repository}) in {org}.")
    return 0


@command
def app_list(invocation: Invocation) -> int:
    org = invocation.org()
    with invocation.client() as client:
        found = [_dump(a) for a in client.platform_applications.list(org)]
    invocation.show(found, lambda rows: columns(rows, APP_COLUMNS))
    return 0


@command
def app_get(invocation: Invocation) -> int:
    name = target(invocation.args, APPLICATION)
    org = invocation.org()
    with invocation.client() as client:
        found = client.platform_applications.get(org, name)
    invocation.show(_dump(found), _record)
    return 0


@command
def app_deploy(invocation: Invocation) -> int:
    name = target(invocation.args, APPLICATION)
    org = invocation.org()
    args = invocation.args
    with invocation.client() as client:
        made = client.application_deployments.deploy(
            org, name, environment=args.environment, version=args.version
        )
    text = f"Deploying {name!r} to {made.environment}: {made.status}."
    invocation.show(_dump(made), lambda _: text)
    return 0


# platform-app-deployment


def _deployments(commands: Any) -> None:
    actions = _group(
        commands, "platform-app-deployment", "the deployments of the platform applications"
    )
    _command(actions, "list", "list the deployments", deployment_list, read=True)
    parser = _command(actions, "get", "show an application's deployment", deployment_get, read=True)
    add_target(parser, APPLICATION)


DEPLOYMENT_COLUMNS = ("name", "environment", "version", "status")


@command
def deployment_list(invocation: Invocation) -> int:
    org = invocation.org()
    with invocation.client() as client:
        found = [_dump(d) for d in client.application_deployments.list(org)]
    invocation.show(found, lambda rows: columns(rows, DEPLOYMENT_COLUMNS))
    return 0


@command
def deployment_get(invocation: Invocation) -> int:
    name = target(invocation.args, APPLICATION)
    org = invocation.org()
    with invocation.client() as client:
        found = client.application_deployments.get(org, name)
    invocation.show(_dump(found), _record)
    return 0
