"""Regions beyond the service's four: a target's own codes pass check, an unknown code is the
API's to refuse, and a region without a feature refuses its resources, through the provider
process and through a stack."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers._base import Provider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store import ObjectStoreProvider
from altostratus.providers.object_store_credential import ObjectStoreCredentialProvider
from altostratus.testing import DeploymentFailed, Stack
from tests.support.engine import Engine, ProviderProcess
from tests.support.provider_config import stack_config

from .scenarios import BACKEND

FEATURELESS = "FAKE"
"""Offers networks (every region does) and nothing the features govern."""


@pytest.fixture(scope="module")
def regional_emulator() -> Iterator[Emulator]:
    """An emulator serving ``LOCAL`` (every feature) and ``FAKE`` (no feature) besides the four,
    in place of the session's."""
    with Emulator(
        extra_regions=["LOCAL", f"{FEATURELESS}:iaas"],
        lb_ready_seconds=0.2,
        objectstore_ready_seconds=0.1,
    ) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def regional_engine(regional_emulator: Emulator) -> Iterator[Engine]:
    """A provider process configured for ``regional_emulator``, for the module."""
    process = ProviderProcess(stack_config(regional_emulator))
    yield Engine(process)
    process.close()


@pytest.fixture
def regional_client(regional_emulator: Emulator) -> Iterator[Client]:
    """A client of ``regional_emulator``, reset before the test."""
    regional_emulator.reset()
    with Client(api_key=regional_emulator.api_key, api_url=regional_emulator.api_url) as client:
        yield client


def test_a_region_the_target_serves_besides_the_four_is_used(
    regional_client: Client, regional_engine: Engine
) -> None:
    created = regional_engine.up(
        NetworkProvider(), "edge", {"label": "edge", "region": "local"}, None
    )
    assert created.state.outputs["region"] == "LOCAL"
    assert created.state.inputs["region"] == "LOCAL"
    assert [n.label for n in regional_client.networks.list(region="LOCAL") if not n.default] == [
        "edge"
    ]
    store = regional_engine.up(
        ObjectStoreProvider(), "media", {"name": "media", "region": "LOCAL"}, None
    )
    assert regional_client.object_stores.get(store.state.id, region="LOCAL").name == "media"


def test_an_unknown_region_is_refused_by_the_api_with_its_code(
    regional_client: Client, regional_engine: Engine, regional_emulator: Emulator
) -> None:
    regional_emulator.clear_requests()
    with pytest.raises(grpc.RpcError) as raised:
        regional_engine.up(NetworkProvider(), "far", {"label": "far", "region": "MARS1"}, None)
    details = raised.value.details() or ""
    assert "400 region_unavailable" in details and "MARS1" in details
    assert [e["status"] for e in regional_emulator.requests()] == [400]  # checked, then sent once


@pytest.mark.parametrize(
    ("provider", "inputs", "label"),
    [
        (ObjectStoreProvider(), {"name": "media"}, "an object store"),
        (ObjectStoreCredentialProvider(), {"name": "ci"}, "an object store credential"),
    ],
    ids=["store", "credential"],
)
def test_a_create_in_a_region_without_the_feature_fails_with_the_apis_reason(
    regional_client: Client,
    regional_engine: Engine,
    provider: Provider,
    inputs: dict[str, str],
    label: str,
) -> None:
    with pytest.raises(grpc.RpcError) as raised:
        regional_engine.up(provider, "x", {**inputs, "region": FEATURELESS}, None)
    details = raised.value.details() or ""
    assert "400 region_feature_unavailable" in details
    assert f"You can't create {label} in the {FEATURELESS} region" in details
    assert regional_client.object_stores.list(region=FEATURELESS) == []
    assert regional_client.object_store_credentials.list(region=FEATURELESS) == []


def test_a_balancer_in_a_region_without_load_balancers_fails(
    regional_client: Client, regional_engine: Engine
) -> None:
    network = regional_client.networks.create(
        label="app", cidr_v4="10.20.0.0/24", region=FEATURELESS
    )
    inputs = {"network_id": network.id, "backends": [BACKEND], "region": FEATURELESS}
    with pytest.raises(grpc.RpcError) as raised:
        regional_engine.up(LoadBalancerProvider(), "front", inputs, None)
    assert "400 region_feature_unavailable" in (raised.value.details() or "")
    assert regional_client.load_balancers.list(region=FEATURELESS) == []
    assert regional_client.networks.get(network.id, region=FEATURELESS).label == "app"


def test_a_stack_whose_store_the_region_lacks_keeps_nothing_of_it(
    regional_client: Client, regional_emulator: Emulator
) -> None:
    def program() -> None:
        alto.Network("app", label="app", region=FEATURELESS)
        alto.ObjectStore("media", name="media", region=FEATURELESS)

    stack = Stack(program, emulator=regional_emulator)
    try:
        with pytest.raises(DeploymentFailed) as failed:
            stack.up()
        (error,) = failed.value.result.errors
        assert (error.op, error.kind, error.name) == ("create", "ObjectStore", "media")
        assert "region_feature_unavailable" in error.message
        assert [res.name for res in stack.state.resources] == ["app"]
        assert regional_client.object_stores.list(region=FEATURELESS) == []
    finally:
        stack.close()
