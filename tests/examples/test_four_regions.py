"""The four-regions example: only its networks and credentials name a region, and every other
record is made in the region of the record it refers to, through the runner and the real
engine (``--parallel 16``), up to a destroy that leaves nothing in any region."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import Stack
from tests.support.account import EXAMPLES
from tests.support.pulumi_cli import Project

REGIONS = ("LON1", "FRA1", "NYC1", "PHX1")
EACH = {
    "networks": 1,
    "firewalls": 1,
    "firewall_rules": 2,
    "load_balancers": 1,
    "reserved_ips": 1,
    "object_stores": 1,
    "credentials": 1,
}
"""What the example holds in each region, as ``held`` counts it."""


def held(emulator: Emulator) -> dict[str, dict[str, int]]:
    """Per region, what the account holds beyond the default network (none left out)."""
    found: dict[str, dict[str, int]] = {}
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        for region in REGIONS:
            firewalls = client.firewalls.list(region=region)
            counts = {
                "networks": sum(not n.default for n in client.networks.list(region=region)),
                "firewalls": len(firewalls),
                "firewall_rules": sum(len(f.rules or []) for f in firewalls),
                "load_balancers": len(client.load_balancers.list(region=region)),
                "reserved_ips": len(client.reserved_ips.list(region=region)),
                "object_stores": len(client.object_stores.list(region=region)),
                "credentials": len(client.object_store_credentials.list(region=region)),
            }
            kept = {kind: count for kind, count in counts.items() if count}
            if kept:
                found[region] = kept
    return found


def assert_in_their_regions(emulator: Emulator, outputs: dict[str, object]) -> None:
    assert held(emulator) == dict.fromkeys(REGIONS, EACH)
    for region in REGIONS:
        recorded = outputs[f"{region.lower()}_regions"]
        assert recorded == dict.fromkeys(("firewall", "balancer", "reserved_ip", "store"), region)
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        for region in REGIONS:
            (address,) = client.reserved_ips.list(region=region)
            (balancer,) = client.load_balancers.list(region=region)
            assert outputs[f"{region.lower()}_public_ip"] == address.ip == balancer.public_ip


def test_the_four_regions_example_through_the_runner(
    stack_factory: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    stack = stack_factory("four-regions")

    first = stack.up()
    assert set(first.operations.values()) == {"create"}
    assert_in_their_regions(fresh_emulator, first.output_values())

    assert stack.preview().changed() == {}
    stack.refresh()
    assert stack.up().changed() == {}

    stack.destroy()
    assert held(fresh_emulator) == {}


@pytest.mark.real_engine
@pytest.mark.timeout(600)
def test_the_four_regions_example_under_the_real_engine(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    project = Project(EXAMPLES / "four-regions", tmp_path, fresh_emulator)
    project.init()

    project("up", "--yes", "--skip-preview", "--parallel", "16")
    outputs = dict(json.loads(project("stack", "output", "--json")))
    assert_in_their_regions(fresh_emulator, outputs)

    project("preview", "--expect-no-changes", "--parallel", "16")
    project("refresh", "--yes", "--expect-no-changes", "--skip-preview", "--parallel", "16")
    project("preview", "--expect-no-changes", "--parallel", "16")

    project("destroy", "--yes", "--skip-preview", "--parallel", "16")
    assert held(fresh_emulator) == {}


@pytest.mark.real_engine
@pytest.mark.timeout(600)
def test_a_get_in_the_wrong_region_names_it_under_the_real_engine(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        network = client.networks.create(label="far", cidr_v4="10.65.0.0/24", region="FRA1")
    source = tmp_path / "source" / "reader"
    source.mkdir(parents=True)
    (source / "Pulumi.yaml").write_text(
        "name: reader\nruntime:\n  name: python\n  options:\n    toolchain: pip\n"
        "    virtualenv: venv\n"
    )
    (source / "__main__.py").write_text(
        f"import altostratus as alto\n\nalto.Network.get('far', {network.id!r})\n"
    )
    project = Project(source, tmp_path / "work", fresh_emulator)
    project.init()
    output = project("up", "--yes", "--skip-preview", ok=False)
    assert (
        f"could not read network '{network.id}': it does not exist in LON1 (the configured "
        "region: get looks there when given no region)"
    ) in output
