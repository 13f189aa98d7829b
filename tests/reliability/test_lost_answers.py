"""Creates whose answer never comes back in time, and a create that fails half-way.

The provider settings have no client timeout (the client's default read timeout is 30 s), so
the slow-answer tests run the provider in this process with its process-level client replaced
by one with a short timeout.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from pulumi.dynamic import Config, ConfigureRequest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers import _config
from altostratus.providers._base import Provider
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.reserved_ip import ReservedIpProvider
from altostratus.providers.webhook import WebhookProvider
from tests.support.engine import Engine
from tests.support.provider_config import stack_config

from .stack import BACKEND, inventory

CLIENT_TIMEOUT = 0.3
SLOWER_THAN_TIMEOUT = 0.8


def wait_for_answers(emulator: Emulator, timeout: float = 10.0) -> None:
    """Until every logged request has been answered (a delayed one applies late)."""
    deadline = time.monotonic() + timeout
    while any(entry["status"] is None for entry in emulator.requests()):
        assert time.monotonic() < deadline, "a delayed request never finished"
        time.sleep(0.05)


@pytest.fixture
def impatient_client(fresh_emulator: Emulator, monkeypatch: pytest.MonkeyPatch) -> Iterator[Client]:
    """The provider settings of this process, with a client that gives up after 0.3 s."""
    config = stack_config(fresh_emulator)
    NetworkProvider().configure(ConfigureRequest(Config(raw_config=config, project_name="t")))
    with Client(stack_config=config, timeout=CLIENT_TIMEOUT) as client:
        monkeypatch.setattr(_config, "_client", client)
        yield client
    wait_for_answers(fresh_emulator)


def slow_create_cases() -> list[Any]:
    return [
        pytest.param(FirewallProvider(), "firewall", "/v2/vpc/firewalls", id="firewall"),
        pytest.param(NetworkProvider(), "network", "/v2/vpc/networks", id="network"),
        pytest.param(WebhookProvider(), "webhook", "/v2/webhooks", id="webhook"),
    ]


@pytest.mark.parametrize(("provider", "kind", "path"), slow_create_cases())
def test_a_create_answered_after_the_client_timeout_makes_one_record(
    provider: Provider,
    kind: str,
    path: str,
    client: Client,
    fresh_emulator: Emulator,
    impatient_client: Client,
) -> None:
    network = client.networks.create(label="deps", cidr_v4="10.80.0.0/24")
    news: dict[str, Any] = {
        "firewall": {"network_id": network.id},
        "network": {"label": "slow", "cidr_v4": "10.81.0.0/24"},
        "webhook": {"url": "https://hooks.example.com/slow"},
    }[kind]
    checked = provider.check({}, {**news, "__name_prefix": kind})
    fresh_emulator.add_fault(method="POST", path_prefix=path, delay_seconds=SLOWER_THAN_TIMEOUT)
    created = provider.create(checked.inputs)
    wait_for_answers(fresh_emulator)
    counts = inventory(client)
    print(f"\nslow {kind} create: {counts}")
    expected = 2 if kind == "network" else 1  # the dependency network counts too
    assert counts[kind] == expected
    assert created.id


def test_a_reserved_ip_whose_assignment_fails_is_not_left_behind(
    client: Client, provider_engine: Engine, fresh_emulator: Emulator
) -> None:
    """The create fails after the address was reserved; it must not stay outside the state."""
    network = client.networks.create(label="deps", cidr_v4="10.82.0.0/24")
    balancer = client.load_balancers.create(name="deps", network_id=network.id, backends=[BACKEND])
    fresh_emulator.add_fault(method="POST", path_prefix="/v2/vpc/ips/", status=503)
    try:
        provider_engine.up(ReservedIpProvider(), "address", {"assign_to_id": balancer.id}, None)
    except grpc.RpcError:
        assert client.reserved_ips.list() == [], "the reserved IP is left outside the state"
    else:
        assert len(client.reserved_ips.list()) == 1
