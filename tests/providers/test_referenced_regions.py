"""A resource that refers to another record and names no region is made in that record's region
(through the provider process, the stack configured for LON1); one naming another region fails
in one line naming both; a "not found" names the region asked; the region found is recorded and
used by update, refresh and delete."""

from __future__ import annotations

from collections.abc import Callable

import grpc
import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client, NotFoundError
from altostratus.emulator import Emulator
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.firewall_rule import FirewallRuleProvider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.object_store import ObjectStoreProvider
from altostratus.providers.reserved_ip import ReservedIpProvider
from altostratus.testing import DeploymentFailed, Stack
from tests.support.engine import Engine

from .scenarios import BACKEND


def _failure(raised: pytest.ExceptionInfo[grpc.RpcError]) -> str:
    """The provider error's one line (the last of the details, after any trace)."""
    line = (raised.value.details() or "").strip().splitlines()[-1]
    return line.removeprefix("altostratus.ProviderError: ")


def test_a_firewall_follows_its_network_and_keeps_its_region_through_its_life(
    configured_client: Client, provider_engine: Engine, fresh_emulator: Emulator
) -> None:
    network = configured_client.networks.create(label="far", cidr_v4="10.50.0.0/24", region="PHX1")

    created = provider_engine.up(FirewallProvider(), "fw", {"network_id": network.id}, None)

    assert created.state.outputs["region"] == "PHX1"
    assert "region" not in created.state.inputs  # the program named none: nothing to diff
    assert configured_client.firewalls.get(created.state.id, region="PHX1").network_id == network.id
    assert configured_client.firewalls.list(region="LON1") == []

    again = provider_engine.up(FirewallProvider(), "fw", {"network_id": network.id}, created.state)
    assert again.operation == "same"
    renamed = {"network_id": network.id, "name": "edge"}
    updated = provider_engine.up(FirewallProvider(), "fw", renamed, created.state)
    assert updated.operation == "update" and updated.state.outputs["region"] == "PHX1"
    assert configured_client.firewalls.get(created.state.id, region="PHX1").name == "edge"
    refreshed = provider_engine.refresh(FirewallProvider(), "fw", updated.state)
    assert refreshed is not None and refreshed.outputs["region"] == "PHX1"
    assert provider_engine.up(FirewallProvider(), "fw", renamed, refreshed).operation == "same"

    provider_engine.destroy(FirewallProvider(), "fw", refreshed)
    with pytest.raises(NotFoundError):
        configured_client.firewalls.get(created.state.id, region="PHX1")


def test_a_create_in_the_configured_region_costs_no_request_more(
    configured_client: Client, provider_engine: Engine, fresh_emulator: Emulator
) -> None:
    network = configured_client.networks.create(label="near", cidr_v4="10.51.0.0/24")
    fresh_emulator.clear_requests()
    provider_engine.up(FirewallProvider(), "fw", {"network_id": network.id}, None)
    assert [(e["method"], e["status"]) for e in fresh_emulator.requests()] == [
        ("POST", 200),
        ("GET", 200),
    ]


def test_each_kind_follows_the_record_it_refers_to(
    configured_client: Client, provider_engine: Engine
) -> None:
    network = configured_client.networks.create(label="nyc", cidr_v4="10.20.0.0/24", region="NYC1")
    firewall = provider_engine.up(FirewallProvider(), "fw", {"network_id": network.id}, None)
    rule = {"firewall_id": firewall.state.id, "protocol": "tcp", "start_port": "443"}
    made_rule = provider_engine.up(FirewallRuleProvider(), "https", rule, None)
    balancer = provider_engine.up(
        LoadBalancerProvider(),
        "web",
        {"network_id": network.id, "firewall_id": firewall.state.id, "backends": [BACKEND]},
        None,
    )
    address = provider_engine.up(
        ReservedIpProvider(), "ip", {"assign_to_id": balancer.state.id}, None
    )
    credential = configured_client.object_store_credentials.create(name="nyc-key", region="NYC1")
    store_inputs = {"access_key_id": credential.access_key_id}
    store = provider_engine.up(ObjectStoreProvider(), "media", store_inputs, None)

    for made in (firewall, made_rule, balancer, address, store):
        assert made.state.outputs["region"] == "NYC1"
        assert "region" not in made.state.inputs
    assert (
        configured_client.reserved_ips.get(address.state.id, region="NYC1").assigned_to is not None
    )
    assert configured_client.object_stores.get(store.state.id, region="NYC1").owner_info is not None
    listed = configured_client.firewall_rules.list(firewall.state.id, region="NYC1")
    assert made_rule.state.id in {rule.id for rule in listed}

    provider_engine.destroy(ObjectStoreProvider(), "media", store.state)
    provider_engine.destroy(ReservedIpProvider(), "ip", address.state)
    provider_engine.destroy(LoadBalancerProvider(), "web", balancer.state)
    provider_engine.destroy(FirewallRuleProvider(), "https", made_rule.state)
    provider_engine.destroy(FirewallProvider(), "fw", firewall.state)
    assert configured_client.load_balancers.list(region="NYC1") == []
    assert configured_client.firewalls.list(region="NYC1") == []
    assert configured_client.reserved_ips.list(region="NYC1") == []


def test_a_region_named_that_is_not_the_records_fails_naming_both(
    configured_client: Client, provider_engine: Engine
) -> None:
    network = configured_client.networks.create(label="fra", cidr_v4="10.52.0.0/24", region="FRA1")
    with pytest.raises(grpc.RpcError) as raised:
        provider_engine.up(
            FirewallProvider(), "fw", {"network_id": network.id, "region": "NYC1"}, None
        )
    line = _failure(raised)
    assert line.startswith("could not create firewall 'fw-")
    assert f"its network '{network.id}' is in FRA1, not in NYC1 as its region says" in line
    assert all(configured_client.firewalls.list(region=r) == [] for r in ("FRA1", "NYC1", "LON1"))

    balancer = configured_client.load_balancers.create(
        name="lb",
        network_id=configured_client.networks.create(label="n", region="FRA1").id,
        backends=[BACKEND],
        region="FRA1",
    )
    with pytest.raises(grpc.RpcError) as raised:
        provider_engine.up(
            ReservedIpProvider(), "ip", {"assign_to_id": balancer.id, "region": "PHX1"}, None
        )
    line = _failure(raised)
    assert f"its load balancer '{balancer.id}' is in FRA1, not in PHX1" in line
    assert configured_client.reserved_ips.list(region="PHX1") == []


def test_a_record_in_no_region_fails_naming_the_regions_asked(
    configured_client: Client, provider_engine: Engine
) -> None:
    with pytest.raises(grpc.RpcError) as raised:
        provider_engine.up(FirewallProvider(), "fw", {"network_id": "no-such-network"}, None)
    line = _failure(raised)
    assert "no network 'no-such-network' exists in LON1 (the configured region)" in line
    assert "nor in FRA1, NYC1, PHX1" in line

    credential = configured_client.object_store_credentials.create(name="k", region="FRA1")
    with pytest.raises(grpc.RpcError) as raised:
        provider_engine.up(
            ObjectStoreProvider(),
            "media",
            {"access_key_id": credential.access_key_id, "region": "NYC1"},
            None,
        )
    line = _failure(raised)
    assert "its object store credential of the access_key_id given is in FRA1, not in NYC1" in line
    assert credential.access_key_id not in (raised.value.details() or "")


def test_every_not_found_the_providers_show_names_the_region_asked(
    configured_client: Client, provider_engine: Engine
) -> None:
    network = configured_client.networks.create(label="fra", cidr_v4="10.53.0.0/24", region="FRA1")
    inputs = {"network_id": network.id, "firewall_id": "no-such-firewall", "backends": [BACKEND]}
    with pytest.raises(grpc.RpcError) as raised:
        provider_engine.up(LoadBalancerProvider(), "web", inputs, None)
    line = _failure(raised)
    assert line.startswith("could not create load balancer 'web-") and " in FRA1: 404 " in line

    firewall = provider_engine.up(FirewallProvider(), "fw", {"network_id": network.id}, None)
    configured_client.firewalls.delete(firewall.state.id, region="FRA1")
    with pytest.raises(grpc.RpcError) as raised:
        provider_engine.up(
            FirewallProvider(), "fw", {"network_id": network.id, "name": "x"}, firewall.state
        )
    line = _failure(raised)
    assert line.startswith(f"could not update firewall '{firewall.state.id}' in FRA1: 404")


def test_get_without_a_region_looks_in_the_configured_one_and_says_so(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    network = configured_client.networks.create(label="fra", cidr_v4="10.54.0.0/24", region="FRA1")

    def program(region: str | None) -> Callable[[], None]:
        return lambda: pulumi.export(
            "label", alto.Network.get("n", network.id, region=region).label
        )

    stack = Stack(program(None), emulator=fresh_emulator)
    try:
        with pytest.raises(DeploymentFailed) as failed:
            stack.up()
        (error,) = failed.value.result.errors
        assert (
            error.message.strip()
            .splitlines()[-1]
            .endswith(
                f"could not read network '{network.id}': it does not exist in LON1 (the configured "
                "region: get looks there when given no region)"
            )
        )
    finally:
        stack.close()
    with Stack(program("FRA1"), emulator=fresh_emulator) as named:
        assert named.up().output_values() == {"label": "fra"}


def test_a_lost_answer_in_the_configured_region_is_followed_to_the_records_region(
    configured_client: Client, provider_engine: Engine, fresh_emulator: Emulator
) -> None:
    network = configured_client.networks.create(label="fra", cidr_v4="10.55.0.0/24", region="FRA1")
    firewall = configured_client.firewalls.create(
        name="fw", network_id=network.id, region="FRA1", create_default_rules=False
    )
    fresh_emulator.add_fault(method="POST", path_prefix="/v2/vpc/firewalls", drop_connection=True)
    rule = {"firewall_id": firewall.id, "protocol": "tcp", "start_port": "443"}

    made = provider_engine.up(FirewallRuleProvider(), "https", rule, None)

    assert made.state.outputs["region"] == "FRA1"
    assert [r.id for r in configured_client.firewall_rules.list(firewall.id, region="FRA1")] == [
        made.state.id
    ]


def test_a_record_in_no_region_with_a_region_named_fails_naming_it(
    configured_client: Client, provider_engine: Engine
) -> None:
    inputs = {"firewall_id": "no-such-firewall", "protocol": "icmp", "region": "NYC1"}
    with pytest.raises(grpc.RpcError) as raised:
        provider_engine.up(FirewallRuleProvider(), "ping", inputs, None)
    assert _failure(raised).endswith(
        "no firewall 'no-such-firewall' exists in NYC1 (nor in any other region)"
    )
