"""Programs under Pulumi's mocks: what the resource classes register."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pulumi
import pytest
from google.protobuf import json_format
from pulumi.runtime.mocks import MockMonitor

import altostratus.providers as alto

NAMES = [
    "Network",
    "Firewall",
    "FirewallRule",
    "LoadBalancer",
    "ReservedIp",
    "ObjectStore",
    "ObjectStoreCredential",
    "Webhook",
]


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        return f"{args.name}-id", dict(args.inputs)

    def call(
        self, args: pulumi.runtime.MockCallArgs
    ) -> tuple[dict[str, Any], list[tuple[str, str]] | None]:
        return {}, None


class RecordingMonitor(MockMonitor):
    def __init__(self, mocks: Mocks) -> None:
        super().__init__(mocks)
        self.registered: dict[str, Any] = {}

    def RegisterResource(self, request: Any) -> Any:
        kind = request.type.rpartition(":")[2]
        if request.type.startswith("pulumi-python:dynamic/"):
            self.registered[kind] = request
        return super().RegisterResource(request)


@pytest.fixture
def monitor() -> Iterator[RecordingMonitor]:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    mocks = Mocks()
    recording = RecordingMonitor(mocks)
    pulumi.runtime.set_mocks(mocks, preview=False, monitor=recording)
    yield recording
    asyncio.set_event_loop(None)
    loop.close()


def _program() -> dict[str, pulumi.CustomResource]:
    net = alto.Network("app", label="app", cidr_v4="10.20.0.0/24")
    fw = alto.Firewall("app", alto.FirewallArgs(network_id=net.id, create_default_rules=False))
    rule = alto.FirewallRule(
        "ssh", firewall_id=fw.id, protocol="tcp", start_port="22", cidr=["10.0.0.0/8"]
    )
    backend = alto.LoadBalancerBackendArgs(
        ip=pulumi.Output.from_input("10.20.0.10"), protocol="TCP", source_port=80, target_port=8080
    )
    lb = alto.LoadBalancer("web", network_id=net.id, backends=[backend])
    ip = alto.ReservedIp("web", assign_to_id=lb.id)
    cred = alto.ObjectStoreCredential("ci")
    store = alto.ObjectStore("assets", max_size_gb=500, access_key_id=cred.access_key_id)
    hook = alto.Webhook("events", url="https://hooks.example.com/", events=["network.created"])
    return {
        "Network": net,
        "Firewall": fw,
        "FirewallRule": rule,
        "LoadBalancer": lb,
        "ReservedIp": ip,
        "ObjectStore": store,
        "ObjectStoreCredential": cred,
        "Webhook": hook,
    }


def _inputs(request: Any) -> dict[str, Any]:
    return dict(json_format.MessageToDict(request.object))


@pulumi.runtime.test
def test_type_tokens_and_snake_case_inputs(monitor: RecordingMonitor) -> Any:
    resources = _program()

    def verify(_: Any) -> None:
        types = {r.type for r in monitor.registered.values()}
        assert types == {f"pulumi-python:dynamic/altostratus:{name}" for name in NAMES}
        lb = _inputs(monitor.registered["LoadBalancer"])
        assert lb["network_id"] == "app-id"
        assert lb["backends"] == [
            {"ip": "10.20.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}
        ]
        assert _inputs(monitor.registered["FirewallRule"])["start_port"] == "22"
        assert _inputs(monitor.registered["ObjectStore"])["__name_prefix"] == "assets"

    return pulumi.Output.all(*(r.urn for r in resources.values())).apply(verify)


@pulumi.runtime.test
def test_secret_outputs_are_listed(monitor: RecordingMonitor) -> Any:
    resources = _program()
    expected = {
        "ObjectStoreCredential": {"access_key_id", "secret_access_key_id", "secret_access_key"},
        "ObjectStore": {"access_key_id", "secret_access_key", "owner_info"},
        "Webhook": {"secret"},
    }

    def verify(_: Any) -> None:
        for kind in resources:
            request = monitor.registered[kind]
            assert set(request.additionalSecretOutputs) == expected.get(kind, set()), kind

    return pulumi.Output.all(*(r.urn for r in resources.values())).apply(verify)


@pulumi.runtime.test
def test_outputs_are_exposed(monitor: RecordingMonitor) -> Any:
    store = alto.ObjectStore("assets", max_size_gb=10)
    hook = alto.Webhook("events", url="https://hooks.example.com/")

    def verify(values: list[Any]) -> None:
        assert values[0] == 10 and values[1] == "https://hooks.example.com/"

    return pulumi.Output.all(store.max_size_gb, hook.url, store.endpoint_url).apply(verify)


def test_unknown_keywords_are_refused(monitor: RecordingMonitor) -> None:
    with pytest.raises(TypeError, match="cidr"):
        alto.Network("app", cidr="10.0.0.0/24")
