"""Explicit providers under the real engine: two accounts of one emulator and a second emulator,
in three regions, in one program; each resource lands in its own. Another URL replaces a
provider's resources; the same URL spelt with a trailing ``/`` or ``/v2``, another key or
another region does not."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.support.account import leftovers
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

PROGRAMS = Path(__file__).parent / "programs"
REGIONS = ("LON1", "FRA1", "NYC1", "PHX1")


@pytest.fixture
def other_emulator() -> Iterator[Emulator]:
    with Emulator() as emulator:
        yield emulator


def held(api_url: str, api_key: str) -> dict[str, list[str]]:
    """The networks' labels and the stores' names of an account, with their regions."""
    networks, stores = [], []
    with Client(api_key=api_key, api_url=api_url) as client:
        for region in REGIONS:
            listed = client.networks.list(region=region)
            networks += [f"{n.label}@{region}" for n in listed if not n.default]
            names = [s.name or "" for s in client.object_stores.list(region=region)]
            stores += [f"{name.rsplit('-', 1)[0]}@{region}" for name in names]
    return {"networks": sorted(networks), "stores": sorted(stores)}


def steps(project: Project) -> dict[str, str]:
    """The operation of every step of a preview, providers included, by URN name; the read of
    the resource declared with ``get`` (at every preview) left out."""
    shown = json.loads(project("preview", "--json"))
    found = {step["urn"].split("::")[-1]: step["op"] for step in shown.get("steps", [])}
    assert found.pop("seen") == "read"
    return found


def test_each_resource_lands_in_its_providers_account_and_region(
    fresh_emulator: Emulator, other_emulator: Emulator, tmp_path: Path
) -> None:
    second = fresh_emulator.add_account("second")
    project = Project(PROGRAMS / "two-accounts", tmp_path, fresh_emulator)
    project("stack", "init", "dev")
    project("config", "set", "firstUrl", fresh_emulator.api_url)
    project("config", "set", "--secret", "firstKey", fresh_emulator.api_key)
    project("config", "set", "--secret", "secondKey", second["api_key"])
    project("config", "set", "otherUrl", other_emulator.api_url)
    project("config", "set", "--secret", "otherKey", other_emulator.api_key)
    project("up", "--yes", "--skip-preview")

    assert held(fresh_emulator.api_url, fresh_emulator.api_key) == {
        "networks": ["first-net@LON1"],
        "stores": ["first-store@LON1"],
    }
    assert held(fresh_emulator.api_url, second["api_key"]) == {
        "networks": ["second-net@FRA1"],
        "stores": ["second-store@FRA1"],
    }
    assert held(other_emulator.api_url, other_emulator.api_key) == {
        "networks": ["other-net@NYC1"],
        "stores": ["other-store@NYC1"],
    }
    outputs = project.export()["deployment"]["resources"][0]["outputs"]
    assert outputs["seen_label"] == "other-net"
    # Lookups through a provider ask its account and region.
    with Client(api_key=second["api_key"], api_url=fresh_emulator.api_url) as client:
        (second_default,) = [n for n in client.networks.list(region="FRA1") if n.default]
    assert outputs["second_default"] == second_default.id
    assert outputs["other_found"] == "other-net"
    project("preview", "--expect-no-changes")
    project("refresh", "--yes", "--expect-no-changes")

    # The same service spelt otherwise: nothing to do.
    project("config", "set", "firstUrl", fresh_emulator.api_url.rstrip("/") + "/v2/")
    assert set(steps(project).values()) <= {"same"}
    # Another default region: the provider is updated, not replaced; its resources that name no
    # region move to the new one, as under the dynamic form's altostratus:region.
    project("config", "set", "firstRegion", "FRA1")
    changed = steps(project)
    assert changed["first"] == "update"
    assert changed["first-net"] == "replace"
    assert changed.get("second-net", "same") == "same"
    # Another key: the provider is updated, nothing else.
    project("config", "rm", "firstRegion")
    project("config", "set", "--secret", "firstKey", fresh_emulator.api_key + "-rotated")
    changed = steps(project)
    assert changed["first"] == "update"
    assert {op for name, op in changed.items() if name != "first"} <= {"same"}
    project("config", "set", "--secret", "firstKey", fresh_emulator.api_key)

    # Another service: the provider and its resources are replaced.
    project("config", "set", "otherUrl", fresh_emulator.api_url)
    project("config", "set", "--secret", "otherKey", fresh_emulator.api_key)
    changed = steps(project)
    assert changed["other"] == "replace"
    assert changed["other-net"] == "replace"
    assert changed.get("first-net", "same") == "same"

    project("config", "set", "otherUrl", other_emulator.api_url)
    project("config", "set", "--secret", "otherKey", other_emulator.api_key)
    project("destroy", "--yes", "--skip-preview")
    assert leftovers(fresh_emulator) == {}
    assert leftovers(other_emulator) == {}
    assert held(fresh_emulator.api_url, second["api_key"]) == {"networks": [], "stores": []}
