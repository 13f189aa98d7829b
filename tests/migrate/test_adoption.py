"""Each fixture's program against an emulator holding the same records: a preview of adoptions
only, an ``up`` that keeps every record and makes none, a second ``up`` with nothing to do (the
plugin front end's program too, under the real engine); and an input that disagrees with its
record stops the adoption in one line, changing nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.migrate import FrontEnd, Migration, migrate, read_source, write_project
from altostratus.testing import DeploymentFailed, Stack
from tests.support.pulumi_cli import Project

from .estates import SEEDS, changing_requests, forget_requests, inventory, templated

FIXTURES = sorted(SEEDS)


def migrated(
    fixture: str,
    api: Client,
    folder: Path,
    edit: Callable[[Any], None] | None = None,
    front_end: FrontEnd = "dynamic",
) -> Migration:
    """The fixture's estate made in the emulator, and its program for ``front_end`` written into
    ``folder``; ``edit`` changes the source's document first."""
    document = json.loads(templated(fixture, SEEDS[fixture](api)))
    if edit is not None:
        edit(document)
    migration = migrate(read_source(json.dumps(document)))
    write_project(migration, folder, front_end=front_end)
    return migration


def expected_ids(migration: Migration) -> dict[str, str]:
    return {f"{d.resource}:{d.name}": d.id for d in migration.declarations}


def adopts_everything_and_changes_nothing(
    stack: Stack, migration: Migration, api: Client, emulator: Emulator
) -> None:
    before = inventory(api)
    forget_requests(emulator)

    preview = stack.preview()
    assert preview.operations == {key: "create" for key in expected_ids(migration)}

    adopted = stack.up()
    assert adopted.operations == {key: "create" for key in expected_ids(migration)}
    assert {key: r.id for key, r in adopted.resources.items()} == expected_ids(migration)
    for key, resource in adopted.resources.items():  # each create was an adoption, by its id
        assert resource.inputs["__adopt_id"] == resource.id, key
    assert inventory(api) == before  # every record kept, none made
    assert changing_requests(emulator) == []  # nothing asked of the service but reads

    again = stack.up()
    assert set(again.operations.values()) == {"same"}
    assert inventory(api) == before and changing_requests(emulator) == []


@pytest.mark.parametrize("fixture", FIXTURES)
def test_the_program_adopts_every_record_and_a_second_up_is_all_same(
    fixture: str,
    make_stack: Callable[..., Stack],
    client: Client,
    fresh_emulator: Emulator,
    tmp_path: Path,
) -> None:
    migration = migrated(fixture, client, tmp_path / "infra")
    stack = make_stack(str(tmp_path / "infra"))
    adopts_everything_and_changes_nothing(stack, migration, client, fresh_emulator)


def test_once_adopted_the_resources_may_be_declared_without_adopt(
    make_stack: Callable[..., Stack], client: Client, tmp_path: Path
) -> None:
    """The guide's last step: each ``alto.X.adopt(name, id, args)`` becomes ``alto.X(name,
    args)``, and nothing changes."""
    migrated("terraform-show.json", client, tmp_path / "infra")
    stack = make_stack(str(tmp_path / "infra"))
    stack.up()
    program = tmp_path / "infra" / "__main__.py"
    usual = re.sub(r'\.adopt\(\n(    "[^"\n]*",\n)    "[^"\n]*",\n', r"(\n\1", program.read_text())
    assert ".adopt(" not in usual and usual.count("alto.Network(") == 2
    program.write_text(usual)
    before = inventory(client)
    declared = stack.up()
    assert set(declared.operations.values()) == {"same"}
    assert not [key for key, r in declared.resources.items() if "__adopt_id" in r.inputs]
    assert inventory(client) == before


@pytest.mark.real_engine
@pytest.mark.timeout(600)
@pytest.mark.parametrize("fixture", FIXTURES)
def test_the_real_engine_adopts_every_record_and_a_second_up_is_all_same(
    fixture: str,
    make_stack: Callable[..., Stack],
    client: Client,
    fresh_emulator: Emulator,
    tmp_path: Path,
) -> None:
    migration = migrated(fixture, client, tmp_path / "infra")
    stack = make_stack(str(tmp_path / "infra"), engine="pulumi")
    adopts_everything_and_changes_nothing(stack, migration, client, fresh_emulator)


@pytest.mark.real_engine
@pytest.mark.timeout(600)
@pytest.mark.parametrize("fixture", FIXTURES)
def test_the_plugin_program_adopts_every_record_under_the_real_engine(
    fixture: str, client: Client, fresh_emulator: Emulator, tmp_path: Path
) -> None:
    """``--front-end plugin``'s program, run by ``pulumi up`` with the plugin: every record
    adopted under the plugin's types by its id, none made or changed, then a clean preview."""
    migration = migrated(fixture, client, tmp_path / "infra", front_end="plugin")
    project = Project(tmp_path / "infra", tmp_path / "work", fresh_emulator)
    project.init()
    before = inventory(client)
    forget_requests(fresh_emulator)

    assert project.operations() == {key: "create" for key in expected_ids(migration)}
    project("up", "--yes", "--skip-preview")
    adopted = {
        f"{r['type'].removeprefix('altostratus:index:')}:{r['urn'].rsplit('::', 1)[-1]}": r["id"]
        for r in project.export()["deployment"]["resources"]
        if r["type"].startswith("altostratus:index:")
    }
    assert adopted == expected_ids(migration)
    assert inventory(client) == before  # every record kept, none made
    assert changing_requests(fresh_emulator) == []  # nothing asked of the service but reads
    project("preview", "--expect-no-changes")  # fails on any change


def resource_of(document: dict[str, Any], label: str) -> dict[str, Any]:
    """The fixture's resource by its Terraform address or Pulumi name."""
    if "deployment" in document:
        found = [r for r in document["deployment"]["resources"] if r["urn"].endswith(f"::{label}")]
        return found[0]
    entries = document["values"]["root_module"]["resources"]
    found = [r for r in entries if r["address"] == label]
    return found[0]


def ssh_from_anywhere(document: dict[str, Any]) -> None:
    """The state says the ssh rule is open to all; in the console it was narrowed since."""
    rules = resource_of(document, "civo_firewall.web")["values"]["ingress_rule"]
    next(rule for rule in rules if rule["label"] == "ssh-office")["cidr"] = ["0.0.0.0/0"]


def firewall_renamed(document: dict[str, Any]) -> None:
    """The stack says payments-firewall; the firewall is still payments-fw."""
    firewall = resource_of(document, "payments-fw")
    firewall["outputs"]["name"] = firewall["inputs"]["name"] = "payments-firewall"


@pytest.mark.parametrize(
    ("fixture", "edit", "resource", "message"),
    [
        (
            "terraform-show.json",
            ssh_from_anywhere,
            "FirewallRule:web-ingress-ssh-office",
            "could not adopt firewall rule '{id}': cidr is ['203.0.113.0/24', "
            "'198.51.100.7/32'], the program gives ['0.0.0.0/0']: declare the values it has, "
            "adopt it, then change them",
        ),
        (
            "pulumi-stack-export.json",
            firewall_renamed,
            "Firewall:payments-fw",
            "could not adopt firewall '{id}': name is 'payments-fw', the program gives "
            "'payments-firewall': declare the values it has, adopt it, then change them",
        ),
    ],
)
def test_an_input_that_disagrees_with_its_record_fails_the_adoption_in_one_line(
    fixture: str,
    edit: Callable[[Any], None],
    resource: str,
    message: str,
    make_stack: Callable[..., Stack],
    client: Client,
    fresh_emulator: Emulator,
    tmp_path: Path,
) -> None:
    migration = migrated(fixture, client, tmp_path / "infra", edit)
    stack = make_stack(str(tmp_path / "infra"))
    before = inventory(client)
    forget_requests(fresh_emulator)
    with pytest.raises(DeploymentFailed) as failed:
        stack.up()
    (failure,) = failed.value.result.errors
    assert (failure.op, f"{failure.type.rsplit(':', 1)[-1]}:{failure.name}") == ("create", resource)
    assert failure.message.endswith(": " + message.format(id=expected_ids(migration)[resource]))
    assert "\n" not in failure.message
    assert inventory(client) == before and changing_requests(fresh_emulator) == []
