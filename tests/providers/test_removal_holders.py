"""A delete refused 409 "in use" fails early, naming what holds the resource, when that holder
is not itself being deleted (after a short grace for a delete of it on its way), and waits on
while it is (through the provider process)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import grpc
import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers._removal import holders
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.object_store_credential import ObjectStoreCredentialProvider
from tests.support.engine import Engine, ProviderProcess
from tests.support.provider_config import stack_config

from .scenarios import BACKEND


def _engine(emulator: Emulator, seconds: int) -> Iterator[Engine]:
    process = ProviderProcess(
        stack_config(emulator, **{"altostratus:waitTimeoutSeconds": str(seconds)})
    )
    yield Engine(process)
    process.close()


@pytest.fixture(scope="module")
def patient(emulator: Emulator) -> Iterator[Engine]:
    """A provider process that would wait ten minutes for a holder to go."""
    yield from _engine(emulator, 600)


@pytest.fixture(scope="module")
def brief(emulator: Emulator) -> Iterator[Engine]:
    """A provider process whose waits last at most four seconds (past the grace)."""
    yield from _engine(emulator, 4)


def _line(raised: pytest.ExceptionInfo[grpc.RpcError]) -> str:
    return (raised.value.details() or "").strip().splitlines()[-1]


def test_the_holders_are_read_from_the_reason() -> None:
    reason = (
        "The network is still used by firewall 'a b' (f-1), load balancer 'web' (9c1e-2) and 1 more"
    )
    assert holders(reason) == [("firewall", "a b", "f-1"), ("load balancer", "web", "9c1e-2")]
    assert holders("The network is in use") == []


@pytest.mark.timeout(60)  # waiting out the 600 s would be the bug
def test_a_firewall_held_by_a_balancer_that_stays_fails_early_naming_it(
    configured_client: Client, patient: Engine, fresh_emulator: Emulator
) -> None:
    network = configured_client.networks.create(label="app", cidr_v4="10.20.0.0/24")
    made = patient.up(FirewallProvider(), "fw", {"network_id": network.id}, None)
    balancer = configured_client.load_balancers.create(
        name="web", network_id=network.id, firewall_id=made.state.id, backends=[BACKEND]
    )
    fresh_emulator.clear_requests()

    with pytest.raises(grpc.RpcError) as raised:
        patient.destroy(FirewallProvider(), "fw", made.state)

    line = _line(raised)
    assert f"could not delete firewall '{made.state.id}': still in use by load balancer " in line
    assert f"'web' ({balancer.id}), and it is not being deleted: delete or detach it first" in line
    assert "409 database_firewall_inuse" in line
    refusals = [e for e in fresh_emulator.requests() if e["method"] == "DELETE"]
    assert 3 <= len(refusals) <= 10 and {e["status"] for e in refusals} == {409}
    assert configured_client.firewalls.get(made.state.id).name == made.state.outputs["name"]


@pytest.mark.timeout(60)  # waiting out the 600 s would be the bug
def test_a_credential_owning_a_store_that_stays_fails_early_naming_it(
    configured_client: Client, patient: Engine
) -> None:
    made = patient.up(ObjectStoreCredentialProvider(), "key", {"name": "owner"}, None)
    credential = configured_client.object_store_credentials.get(made.state.id)
    store = configured_client.object_stores.create(
        name="media", access_key_id=credential.access_key_id
    )

    with pytest.raises(grpc.RpcError) as raised:
        patient.destroy(ObjectStoreCredentialProvider(), "key", made.state)

    line = _line(raised)
    assert f"still in use by object store 'media' ({store.id}), and it is not being deleted" in line


def test_a_holder_being_deleted_is_waited_for_past_the_grace(
    configured_client: Client, brief: Engine, removal_takes: Callable[[float], None]
) -> None:
    removal_takes(3600)  # the balancer stays in its deleting state through the test
    network = configured_client.networks.create(label="app", cidr_v4="10.20.0.0/24")
    made = brief.up(FirewallProvider(), "fw", {"network_id": network.id}, None)
    balancer = configured_client.load_balancers.create(
        name="web", network_id=network.id, firewall_id=made.state.id, backends=[BACKEND]
    )
    configured_client.load_balancers.delete(balancer.id)
    assert configured_client.load_balancers.get(balancer.id).state == "deleting"

    with pytest.raises(grpc.RpcError) as raised:
        brief.destroy(FirewallProvider(), "fw", made.state)

    line = _line(raised)
    assert "still in use after 4 s: 409 database_firewall_inuse" in line
    assert "not being deleted" not in line
    assert "run pulumi up after raising it, or pass --run-program" in line
