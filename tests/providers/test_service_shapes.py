"""A whole stack through the real provider process, against answers shaped as the service's.

The provider process, the lookups and ``get`` talk to the emulator through a proxy that rewrites
its answers: into the shapes of the official clients' fixtures (fields left out, renamed, added;
a network create without ``name``; a webhook create answering the whole webhook; backends
without ``protocol``), or down to the records' ids. ``pulumi up``, a second ``up``, ``refresh``
and ``destroy`` all succeed (a store answered without its S3 endpoint once ``force_destroy`` is
set: its objects cannot be counted); what the service leaves out is an output of None.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack
from tests.support.account import leftovers
from tests.support.answer_shapes import ShapingProxy, shaping_proxy

BACKEND = alto.LoadBalancerBackendArgs(
    ip="10.60.0.10", protocol="TCP", source_port=80, target_port=8080
)


@pytest.fixture(params=["official", "ids"])
def proxy(fresh_emulator: Emulator, request: pytest.FixtureRequest) -> Iterator[ShapingProxy]:
    with shaping_proxy(fresh_emulator.api_url, request.param) as serving:
        yield serving


def program(shared_network: str) -> None:
    network = alto.Network("app", label="app", cidr_v4="10.60.0.0/24")
    firewall = alto.Firewall("app", network_id=network.id, create_default_rules=False)
    alto.FirewallRule("ssh", firewall_id=firewall.id, protocol="tcp", start_port="22")
    balancer = alto.LoadBalancer("web", network_id=network.id, backends=[BACKEND])
    alto.ReservedIp("web", assign_to_id=balancer.id)
    credential = alto.ObjectStoreCredential("ci", max_size_gb=5)
    alto.ObjectStore(
        "assets",
        max_size_gb=250,
        access_key_id=credential.access_key_id,
        force_destroy=pulumi.Config().get_bool("forceDestroy") or False,
    )
    alto.Webhook("events", url="https://hooks.example.com/shapes", events=["network.created"])
    shared = alto.Network.get("shared", shared_network)
    pulumi.export("shared_label", shared.label)
    pulumi.export("quota_networks", alto.get_quota().network_count_limit)
    pulumi.export("lookup", alto.get_network_output(id=shared_network).label)


def outputs_of(stack_result: Any, key: str) -> dict[str, Any]:
    return dict(stack_result.resources[key].outputs)


def test_a_stack_lives_its_whole_life_on_the_services_answer_shapes(
    altostratus_stack: Callable[..., Stack],
    fresh_emulator: Emulator,
    proxy: ShapingProxy,
) -> None:
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as api:
        shared = api.networks.create(label="shared", cidr_v4="10.61.0.0/24")
    stack = altostratus_stack(
        lambda: program(shared.id),
        emulator=None,
        config={"altostratus:apiUrl": proxy.url},
        secrets={"altostratus:apiKey": fresh_emulator.api_key},
    )

    first = stack.up()
    assert proxy.shaped > 0
    assert set(first.operations.values()) == {"create", "read"}
    network = outputs_of(first, "Network:app")
    balancer = outputs_of(first, "LoadBalancer:web")
    store = outputs_of(first, "ObjectStore:assets")
    webhook = outputs_of(first, "Webhook:events")
    # What the program gave stays; what the service leaves out is None.
    assert (network["label"], network["cidr_v4"]) == ("app", "10.60.0.0/24")
    absent = {
        "gateway_ipv4": network.get("gateway_ipv4"),
        "free_ip_count": network.get("free_ip_count"),
        "balancer created_at": balancer.get("created_at"),
        "max_concurrent_requests": balancer.get("max_concurrent_requests"),
        "webhook created_at": webhook.get("created_at"),
    }
    assert set(absent.values()) == {None}, absent
    assert store["max_size_gb"] == 250
    if proxy.shape == "official":
        assert webhook["secret"]  # the whole webhook answered by the create
        assert network["status"] == "Active" and balancer["state"] == "available"
        # The service leaves out each backend's protocol: the program's stays.
        assert [b.get("protocol") for b in balancer["backends"]] == ["TCP"]
        assert first.output_values() == {
            "shared_label": "shared",
            "quota_networks": 10,
            "lookup": "shared",
        }
    else:
        assert network.get("status") is None and balancer.get("public_ip") is None
        assert first.output_values().get("shared_label") is None

    assert stack.up().changed() == {}
    refreshed = stack.refresh().resources
    assert refreshed["LoadBalancer:web"].outputs.get("backends") == balancer.get("backends")
    assert stack.up().changed() == {}
    if proxy.shape == "ids":
        # A store answered without its S3 endpoint cannot have its objects counted: it is kept
        # until force_destroy says its objects may go.
        with pytest.raises(DeploymentFailed) as failed:
            stack.destroy()
        assert any("names no S3 endpoint" in line for line in failed.value.result.failures)
        stack.set_config("forceDestroy", "true")
        stack.up()
    stack.destroy()
    assert leftovers(fresh_emulator) == {"networks": 1}
