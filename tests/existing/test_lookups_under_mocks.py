"""Lookups under Pulumi's own mocks: answered by the mocks' ``call``, never over HTTP."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pulumi
import pytest

import altostratus as alto
from altostratus.emulator import Emulator

SHARED = {"id": "net-shared", "label": "shared", "cidr_v4": "10.9.0.0/24", "region": "FRA1"}
STORE = {
    "id": "store-1",
    "name": "assets",
    "bucket_name": "assets-abc1234",
    "secret_access_key": "mocked-secret",
    "region": "LON1",
}
ANSWERS: dict[str, dict[str, Any]] = {
    "altostratus:index:getNetwork": SHARED,
    "altostratus:index:getObjectStore": STORE,
    "altostratus:index:getQuota": {"id": "q1", "network_count_limit": 10, "network_count_usage": 3},
    "altostratus:index:getRegions": {
        "regions": [{"code": "LON1", "name": "London 1", "country": "GB", "default": True}]
    },
}


class Mocks(pulumi.runtime.Mocks):
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.resources: dict[str, dict[str, Any]] = {}

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        self.resources[args.name] = dict(args.inputs)
        return f"{args.name}-id", dict(args.inputs)

    def call(self, args: pulumi.runtime.MockCallArgs) -> dict[str, Any]:
        self.calls.append((args.token, dict(args.args)))
        return ANSWERS[args.token]


@pytest.fixture
def mocks(fresh_emulator: Emulator) -> Iterator[Mocks]:
    """Pulumi's mocks, with a configuration naming the emulator: any request would reach it."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    mocks = Mocks()
    pulumi.runtime.set_mocks(mocks, preview=False)
    pulumi.runtime.set_all_config(
        {"altostratus:apiUrl": fresh_emulator.api_url, "altostratus:apiKey": "unused-key"}
    )
    fresh_emulator.clear_requests()
    yield mocks
    pulumi.runtime.set_all_config({})
    asyncio.set_event_loop(None)
    loop.close()


@pulumi.runtime.test
def test_lookups_are_answered_by_the_mocks_call(mocks: Mocks) -> Any:
    shared = alto.get_network(label="shared", region="FRA1")
    firewall = alto.Firewall("app", network_id=shared.id)
    store = alto.get_object_store_output(name=pulumi.Output.from_input("assets"))
    quota = alto.get_quota()
    regions = alto.get_regions(country="GB")

    assert (shared.id, shared.cidr_v4, shared.region) == ("net-shared", "10.9.0.0/24", "FRA1")
    assert quota.network_count_limit == 10
    assert (regions.codes, regions.default_region) == (["LON1"], "LON1")

    def check(values: list[Any]) -> None:
        network_id, bucket, secret = values
        assert network_id == "net-shared"
        assert (bucket, secret) == ("assets-abc1234", "mocked-secret")
        assert sorted(mocks.calls, key=lambda call: call[0]) == [
            ("altostratus:index:getNetwork", {"label": "shared", "region": "FRA1"}),
            ("altostratus:index:getObjectStore", {"name": "assets"}),
            ("altostratus:index:getQuota", {}),
            ("altostratus:index:getRegions", {"country": "GB"}),
        ]

    found = store.apply(
        lambda result: pulumi.Output.all(result.bucket_name, result.secret_access_key)
    )
    return pulumi.Output.all(firewall.network_id, found).apply(
        lambda values: check([values[0], *values[1]])
    )


def test_a_lookup_under_mocks_sends_no_request(mocks: Mocks, fresh_emulator: Emulator) -> None:
    alto.get_network(label="shared", region="FRA1")
    alto.get_quota()
    assert [call[0] for call in mocks.calls] == [
        "altostratus:index:getNetwork",
        "altostratus:index:getQuota",
    ]
    assert fresh_emulator.requests() == []
