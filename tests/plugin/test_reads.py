"""Records made outside the stack, through the plugin under the real engine: ``import_``,
``get``, a lookup (Invoke) and ``adopt``; and the mistakes refused in one line: a record adopted
by both front ends, a resource asking for another plugin version, an unknown setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from altostratus._version import package_version
from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.plugin.test_engine_cycle import PROGRAMS
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]


def networks(client: Client) -> dict[str, str]:
    """``label: id`` of the networks made here."""
    return {n.label or "": str(n.id) for n in client.networks.list() if not n.default}


@pytest.fixture
def project(fresh_emulator: Emulator, client: Client, tmp_path: Path) -> Project:
    made = {
        label: client.networks.create(label=label, region="LON1", cidr_v4=cidr)
        for label, cidr in [
            ("imported", "10.61.0.0/24"),
            ("read", "10.62.0.0/24"),
            ("adopted", "10.63.0.0/24"),
            ("looked-up", "10.64.0.0/24"),
        ]
    }
    project = Project(PROGRAMS / "reads", tmp_path, fresh_emulator)
    project.init()
    project("config", "set", "importedId", str(made["imported"].id))
    project("config", "set", "readId", str(made["read"].id))
    project("config", "set", "adoptedId", str(made["adopted"].id))
    return project


def test_records_are_imported_read_looked_up_and_adopted_through_the_plugin(
    project: Project, client: Client
) -> None:
    before = networks(client)
    project("up", "--yes", "--skip-preview")
    outputs = project.export()["deployment"]["resources"][0]["outputs"]
    assert outputs["taken"] == before["imported"]
    assert outputs["seen_label"] == "read"
    assert outputs["seen_cidr"] == "10.62.0.0/24"
    assert outputs["found"] == before["looked-up"]
    assert outputs["found_cidr"] == "10.64.0.0/24"
    assert outputs["adopted"] == before["adopted"]
    assert outputs["found_later"] == before["read"]
    assert networks(client) == before
    project("preview", "--expect-no-changes")
    project("refresh", "--yes", "--expect-no-changes")
    project("destroy", "--yes", "--skip-preview")
    # The imported and adopted records were the stack's; the read one and the looked-up one not.
    assert networks(client) == {"read": before["read"], "looked-up": before["looked-up"]}


def test_a_record_adopted_by_both_front_ends_is_refused_in_one_line(
    project: Project, client: Client
) -> None:
    project("config", "set", "case", "adopt-twice")
    answer = project("up", "--yes", "--skip-preview", ok=False)
    adopted = networks(client)["adopted"]
    expected = (
        f"the network {adopted} is adopted twice, by altostratus.Network 'dynamic' and by "
        "altostratus.plugin.Network 'plugin': adopt it once"
    )
    assert expected in answer


def test_a_resource_asking_for_another_plugin_version_fails_naming_both(
    project: Project,
) -> None:
    project("config", "set", "case", "other-version")
    answer = project("up", "--yes", "--skip-preview", ok=False)
    assert "version 0.0.1" in answer, answer
    assert f"version {package_version()}" in answer


def test_an_unknown_setting_is_a_warning_naming_it(project: Project) -> None:
    project("config", "set", "altostratus:regoin", "FRA1")
    answer = project("preview")
    assert "altostratus:regoin is not a setting of the altostratus provider" in answer


def test_an_input_refused_names_the_resource_and_the_property(project: Project) -> None:
    project("config", "set", "case", "bad-input")
    answer = project("up", "--yes", "--skip-preview", ok=False)
    assert (
        "altostratus:index:Network resource 'bad': property cidrV4 value {8.8.8.0/24} has a "
        "problem: cidrV4 (cidr_v4 in Python) "
    ) in answer, answer


def test_a_failing_create_is_one_line_without_a_traceback(project: Project) -> None:
    project("config", "set", "case", "failing-create")
    answer = project("up", "--yes", "--skip-preview", ok=False)
    said = (
        "error: could not create the firewall rule: no firewall 'no-such-firewall' exists in LON1"
    )
    lines = [text.strip() for text in answer.splitlines() if "could not create" in text]
    assert lines, answer
    assert all(line.endswith("(nor in any other region)") for line in lines), lines
    assert any(line.startswith(said) for line in lines), lines
    assert "Traceback" not in answer
