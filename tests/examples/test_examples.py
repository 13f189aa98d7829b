"""Every example through its whole life: preview, up, up again, a changed program, destroy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import Stack
from tests.support.account import EXAMPLES, leftovers

NETWORK_REFERENCE = "organization/altostratus-private-network/dev"


@pytest.mark.parametrize(
    ("example", "config", "changed_config", "updated"),
    [
        pytest.param(
            "private-network",
            {},
            {"adminCidr": "192.168.0.0/16"},
            {"FirewallRule:ssh": "update"},
            id="private-network",
        ),
        pytest.param(
            "load-balancer",
            {},
            {"algorithm": "least_connections"},
            {"LoadBalancer:web": "update"},
            id="load-balancer",
        ),
        pytest.param(
            "object-storage",
            {},
            {"sizeGb": "250"},
            {"ObjectStore:assets": "update"},
            id="object-storage",
        ),
        pytest.param(
            "webhooks",
            {"url": "http://127.0.0.1:9/a"},
            {"url": "http://127.0.0.1:9/b"},
            {"Webhook:infra-events": "update"},
            id="webhooks",
        ),
    ],
)
def test_an_example_lives_its_whole_life(
    stack_factory: Callable[..., Stack],
    fresh_emulator: Emulator,
    example: str,
    config: dict[str, str],
    changed_config: dict[str, str],
    updated: dict[str, str],
) -> None:
    stack = stack_factory(example, config)

    first = stack.up()
    assert first.operations and set(first.operations.values()) == {"create"}
    assert all(o.value not in (None, "") for o in first.outputs.values()), first.outputs

    again = stack.up()
    assert again.changed() == {}
    assert again.output_values() == first.output_values()

    for key, value in changed_config.items():
        stack.set_config(key, value)
    assert stack.preview().changed() == updated
    assert stack.up().changed() == updated

    stack.destroy()
    assert leftovers(fresh_emulator) == {}


def test_private_network_exports_what_its_readme_promises(
    stack_factory: Callable[..., Stack],
) -> None:
    outputs = stack_factory("private-network").up().output_values()
    assert outputs["network_cidr"] == "10.20.0.0/24"
    assert set(outputs) == {"network_id", "network_cidr", "firewall_id"}


def test_load_balancer_exports_the_reserved_address(
    stack_factory: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    outputs = stack_factory("load-balancer").up().output_values()
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        (reserved,) = client.reserved_ips.list()
        balancer = client.load_balancers.get(outputs["load_balancer_id"])
    assert outputs["public_ip"] == reserved.ip == balancer.public_ip
    assert balancer.state == "available"


def test_object_storage_upload_script_works_with_the_stack_outputs(
    stack_factory: Callable[..., Stack], tmp_path: Path
) -> None:
    result = stack_factory("object-storage").up()
    assert result.outputs["secret_access_key"].secret
    upload = tmp_path / "hello.txt"
    upload.write_text("hello from the example\n")
    values = result.output_values()
    env = {**os.environ, **{name.upper(): str(value) for name, value in values.items()}}
    answer = subprocess.run(
        [sys.executable, str(EXAMPLES / "object-storage" / "upload.py"), str(upload)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert answer.returncode == 0, answer.stderr
    listed, link = answer.stdout.splitlines()
    assert listed.split() == [str(upload.stat().st_size), "uploads/hello.txt"]
    url = link.removeprefix("link for an hour: ")
    assert "AWSAccessKeyId=" in url  # boto3's default presigning: Signature V2
    with urllib.request.urlopen(url, timeout=10) as fetched:
        assert fetched.read() == b"hello from the example\n"


def test_stack_composition_builds_on_the_network_stack(
    stack_factory: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    network = stack_factory("private-network")
    network_outputs = network.up().output_values()
    composed = stack_factory("stack-composition", {"networkStack": NETWORK_REFERENCE})
    composed.set_reference(NETWORK_REFERENCE, network_outputs)

    first = composed.up()
    assert set(first.operations.values()) == {"create"}
    assert first.operations["WebTier:web"] == "create"  # the component, recorded too
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        (balancer,) = client.load_balancers.list()
    assert balancer.network_id == network_outputs["network_id"]
    assert first.outputs["public_ip"].value == balancer.public_ip
    assert first.outputs["secret_access_key"].secret

    assert composed.up().changed() == {}
    composed.set_config("backendIps", json.dumps(["10.20.0.20"]))
    assert composed.up().changed() == {"LoadBalancer:web-lb": "update"}

    composed.destroy()
    network.destroy()
    assert leftovers(fresh_emulator) == {}


def test_default_network_deploys_into_the_default_network_and_the_other_stacks_firewall(
    stack_factory: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    network = stack_factory("private-network")
    network_outputs = network.up().output_values()
    web = stack_factory("default-network", {"networkStack": NETWORK_REFERENCE})
    web.set_reference(NETWORK_REFERENCE, network_outputs)

    assert web.preview().operations == {
        "Firewall:platform-firewall": "read",
        "FirewallRule:web-from-default-network": "create",
        "LoadBalancer:web": "create",
        "ReservedIp:web": "create",
    }
    first = web.up()
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        (default,) = [n for n in client.networks.list() if n.default]
        (balancer,) = client.load_balancers.list()
        rules = client.firewall_rules.list(network_outputs["firewall_id"])
    assert balancer.network_id == default.id
    assert first.output_values()["default_network_id"] == default.id
    (firewall,) = [r for r in network.state.resources if r.urn.endswith("Firewall::app")]
    assert first.output_values()["firewall_name"] == firewall.outputs["name"]
    (added,) = [rule for rule in rules if rule.start_port == "8443"]
    assert added.cidr == [default.cidr]
    assert first.outputs["public_ip"].value

    assert web.up().changed() == {}
    web.destroy()
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        assert len(client.firewall_rules.list(network_outputs["firewall_id"])) == len(rules) - 1
    network.destroy()
    assert leftovers(fresh_emulator) == {}
