"""Deletes through the real provider process: "in use" waited out, an asynchronous removal waited
for until a GET answers 404, any other error raised at once, and no request more than the
floor when nothing has to wait."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest

from altostratus.client import Client, NotFoundError
from altostratus.emulator import Emulator
from tests.support.engine import Engine, ProviderProcess
from tests.support.provider_config import stack_config

from .scenarios import IDS, SCENARIOS, Scenario, dependencies

ASYNCHRONOUS = {"network", "firewall", "load_balancer", "reserved_ip", "object_store"}
"""The kinds whose removal may take time: their delete reads until 404."""
NETWORK = next(s for s in SCENARIOS if s.name == "network")


@pytest.fixture(scope="module")
def impatient_engine(emulator: Emulator) -> Iterator[Engine]:
    """A provider process whose waits last at most one second."""
    process = ProviderProcess(stack_config(emulator, **{"altostratus:waitTimeoutSeconds": "1"}))
    yield Engine(process)
    process.close()


def _log(emulator: Emulator) -> list[tuple[str, int]]:
    return [(e["method"], e["status"]) for e in emulator.requests()]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_a_delete_with_nothing_to_wait_for_makes_the_fewest_requests(
    configured_client: Client, provider_engine: Engine, fresh_emulator: Emulator, scenario: Scenario
) -> None:
    deps = dependencies(configured_client, scenario.needs)
    created = provider_engine.up(scenario.provider, scenario.name, scenario.inputs(deps), None)
    fresh_emulator.clear_requests()
    provider_engine.destroy(scenario.provider, scenario.name, created.state)
    confirm = [("GET", 404)] if scenario.name in ASYNCHRONOUS else []
    # A store's delete first reads it and its owner credential, to count its objects.
    count = [("GET", 200), ("GET", 200)] if scenario.name == "object_store" else []
    assert _log(fresh_emulator) == [*count, ("DELETE", 200), *confirm]


def test_a_network_delete_waits_while_its_balancer_is_removed_then_until_it_is_gone(
    configured_client: Client,
    provider_engine: Engine,
    fresh_emulator: Emulator,
    removal_takes: Callable[[float], None],
) -> None:
    removal_takes(1.0)
    network = provider_engine.up(NETWORK.provider, "net", NETWORK.inputs({}), None)
    backends = [{"ip": "10.0.0.9", "protocol": "TCP", "source_port": 80, "target_port": 80}]
    balancer = configured_client.load_balancers.create(
        name="lb", network_id=network.state.id, backends=backends
    )
    configured_client.load_balancers.delete(balancer.id)
    assert (
        configured_client.load_balancers.get(balancer.id).name == "lb"
    )  # being removed, holding the network
    fresh_emulator.clear_requests()

    provider_engine.destroy(NETWORK.provider, "net", network.state)

    sent = _log(fresh_emulator)
    with pytest.raises(NotFoundError):
        configured_client.networks.get(network.state.id)
    deletes = [status for method, status in sent if method == "DELETE"]
    assert deletes[0] == 409 and deletes[-1] == 200 and set(deletes) == {409, 200}
    reads = [status for method, status in sent if method == "GET"]
    assert reads[-1] == 404 and set(reads[:-1]) <= {200}


def test_a_delete_still_in_use_at_the_timeout_fails_naming_the_holder(
    configured_client: Client, impatient_engine: Engine, fresh_emulator: Emulator
) -> None:
    network = impatient_engine.up(NETWORK.provider, "net", NETWORK.inputs({}), None)
    backends = [{"ip": "10.0.0.9", "protocol": "TCP", "source_port": 80, "target_port": 80}]
    holder = configured_client.load_balancers.create(
        name="holder", network_id=network.state.id, backends=backends
    )
    with pytest.raises(grpc.RpcError) as raised:
        impatient_engine.destroy(NETWORK.provider, "net", network.state)
    details = raised.value.details() or ""
    message = details.strip().splitlines()[-1]  # the provider error's one line, after the trace
    assert f"could not delete network '{network.state.id}': still in use" in message
    assert "after 1 s" in message and "409 database_network_inuse" in message
    assert f"load balancer 'holder' ({holder.id})" in message
    assert "altostratus:waitTimeoutSeconds" in message
    assert configured_client.networks.get(network.state.id).status == "Active"

    default = next(n for n in configured_client.networks.list() if n.default)
    fresh_emulator.clear_requests()
    state = network.state.__class__(default.id, {}, network.state.outputs)
    with pytest.raises(grpc.RpcError) as raised:
        impatient_engine.destroy(NETWORK.provider, "default", state)
    assert "409 network_delete_default" in (raised.value.details() or "")
    assert _log(fresh_emulator) == [("DELETE", 409)]  # not in use: raised at once


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIOS if s.name in ("network", "load_balancer", "object_store")],
    ids=["network", "load_balancer", "object_store"],
)  # fmt: skip
def test_refresh_takes_a_resource_being_removed_as_gone(
    configured_client: Client,
    provider_engine: Engine,
    removal_takes: Callable[[float], None],
    scenario: Scenario,
) -> None:
    removal_takes(3600)
    deps = dependencies(configured_client, scenario.needs)
    created = provider_engine.up(scenario.provider, scenario.name, scenario.inputs(deps), None)
    collection: Any = {
        "network": configured_client.networks,
        "load_balancer": configured_client.load_balancers,
        "object_store": configured_client.object_stores,
    }[scenario.name]
    collection.delete(created.state.id)
    assert collection.get(created.state.id)  # still answered, in its deleting state
    assert provider_engine.refresh(scenario.provider, scenario.name, created.state) is None


def test_a_fixed_name_replacement_waits_for_the_old_one_to_be_gone(
    configured_client: Client, provider_engine: Engine, removal_takes: Callable[[float], None]
) -> None:
    removal_takes(0.5)
    firewall = next(s for s in SCENARIOS if s.name == "firewall")
    inputs = {**firewall.inputs(dependencies(configured_client, firewall.needs)), "name": "fixed"}
    created = provider_engine.up(firewall.provider, "fw", inputs, None)
    replaced = provider_engine.up(
        firewall.provider, "fw", {**inputs, **firewall.replace}, created.state
    )
    assert replaced.steps == ["delete", "create"]  # the name is free once the old one is gone
    assert replaced.state.outputs["name"] == "fixed" and replaced.state.id != created.state.id
    with pytest.raises(NotFoundError):
        configured_client.firewalls.get(created.state.id)
