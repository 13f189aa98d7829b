"""Every example through the real engine: ``pulumi preview/up/refresh/destroy`` on the emulator.

Needs the engine that ``tools/engine/build`` makes (marked ``real_engine``). Each example goes
through a preview (creates only), ``up``, a preview expecting no changes, its changed
configuration (previewed as the in-place update the runner's tests expect, then applied),
``refresh --expect-no-changes``, the secrets audit of ``pulumi stack export`` and ``destroy``,
leaving nothing in the emulator.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing.real import SECRET_SIGNATURE
from tests.support.account import EXAMPLES, leftovers
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

NETWORK_REFERENCE = "organization/altostratus-private-network/dev"


def secrets_of_the_service(emulator: Emulator) -> set[str]:
    """Every secret the account's records hold: credential secret keys, webhook secrets."""
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        found = {c.secret_access_key_id or "" for c in client.object_store_credentials.list()}
        found |= {w.secret or "" for w in client.webhooks.list()}
    return {s for s in found if s}


def plain_values(value: Any, *, inside_secret: bool = False) -> list[tuple[str, bool]]:
    """Every text in an exported value, with whether it sits inside a secret."""
    if isinstance(value, dict):
        secret = inside_secret or SECRET_SIGNATURE in value
        return [t for v in value.values() for t in plain_values(v, inside_secret=secret)]
    if isinstance(value, list):
        return [t for v in value for t in plain_values(v, inside_secret=inside_secret)]
    return [(value, inside_secret)] if isinstance(value, str) else []


def audit_secrets(project: Project, emulator: Emulator) -> None:
    """No secret of ours in plain text, each inside a secret; the key only where the guide says."""
    secrets = secrets_of_the_service(emulator) | {emulator.api_key}
    assert not any(s in json.dumps(project.export()) for s in secrets)
    for resource in project.export(show_secrets=True)["deployment"]["resources"]:
        where = {"inputs": resource.get("inputs", {}), "outputs": resource.get("outputs", {})}
        for part, values in where.items():
            for text, inside in plain_values(values):
                for secret in secrets:
                    if secret not in text:
                        continue
                    assert inside, f"{resource['urn']} {part} shows a secret unmarked"
                    if secret == emulator.api_key:
                        # The engine stores the stack config as the provider's inputs.
                        assert resource["type"].startswith("pulumi:providers:"), resource["urn"]


@pytest.mark.parametrize(
    ("example", "config", "changed_config", "updated"),
    [
        ("private-network", {}, {"adminCidr": "192.168.0.0/16"}, "FirewallRule:ssh"),
        ("load-balancer", {}, {"algorithm": "least_connections"}, "LoadBalancer:web"),
        ("object-storage", {}, {"sizeGb": "250"}, "ObjectStore:assets"),
        (
            "webhooks",
            {"url": "http://127.0.0.1:9/a"},
            {"url": "http://127.0.0.1:9/b"},
            "Webhook:infra-events",
        ),
    ],
)
def test_an_example_lives_its_whole_life_under_the_real_engine(
    fresh_emulator: Emulator,
    tmp_path: Path,
    example: str,
    config: dict[str, str],
    changed_config: dict[str, str],
    updated: str,
) -> None:
    project = Project(EXAMPLES / example, tmp_path, fresh_emulator)
    project.init(config=config)

    assert set(project.operations().values()) == {"create"}
    project("up", "--yes", "--skip-preview")
    if example == "private-network":
        # The source position is the program's line that made the resource, not the package's.
        (network,) = [
            r
            for r in project.export()["deployment"]["resources"]
            if r["type"] == "pulumi-python:dynamic/altostratus:Network"
        ]
        program = (EXAMPLES / example / "__main__.py").read_text().splitlines()
        line = next(n for n, text in enumerate(program, 1) if text.startswith("network = "))
        assert network["sourcePosition"] == f"project:///__main__.py#{line}"
    project("preview", "--expect-no-changes")

    for key, value in changed_config.items():
        project("config", "set", key, value)
    changed = {k: op for k, op in project.operations().items() if op != "same"}
    assert changed == {updated: "update"}
    project("up", "--yes", "--skip-preview")

    project("refresh", "--yes", "--expect-no-changes", "--skip-preview")
    audit_secrets(project, fresh_emulator)

    project("destroy", "--yes", "--skip-preview")
    assert leftovers(fresh_emulator) == {}


@pytest.mark.parametrize("example", ["stack-composition", "default-network"])
def test_an_example_builds_on_another_stack_under_the_real_engine(
    fresh_emulator: Emulator, tmp_path: Path, example: str
) -> None:
    network = Project(EXAMPLES / "private-network", tmp_path, fresh_emulator)
    network.init()
    network("up", "--yes", "--skip-preview")

    project = Project(EXAMPLES / example, tmp_path, fresh_emulator)
    project.init(config={"networkStack": NETWORK_REFERENCE})
    assert "create" in project.operations().values()
    project("up", "--yes", "--skip-preview")
    project("preview", "--expect-no-changes")
    # A resource read with `get` is stored as read, before this stack's own changes to it (the
    # rule it adds to the other stack's firewall); the next `up` reads it again.
    project("up", "--yes", "--skip-preview")
    project("refresh", "--yes", "--expect-no-changes", "--skip-preview")
    audit_secrets(project, fresh_emulator)

    project("destroy", "--yes", "--skip-preview")
    network("destroy", "--yes", "--skip-preview")
    assert leftovers(fresh_emulator) == {}
