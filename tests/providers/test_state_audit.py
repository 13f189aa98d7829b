"""What reaches a stack's state: no API key anywhere, every secret output listed, tiny providers."""

from __future__ import annotations

import base64
import json
from typing import Any

import dill  # type: ignore[import-untyped]
import pytest
from google.protobuf import json_format
from pulumi.dynamic.dynamic import serialize_provider

import altostratus.providers as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers._resource import AltostratusResource
from tests.support.engine import Engine, to_struct
from tests.support.provider_config import stack_config

from .conftest import configure
from .scenarios import SCENARIOS, dependencies

RESOURCES: list[type[AltostratusResource[Any]]] = [
    alto.Network,
    alto.Firewall,
    alto.FirewallRule,
    alto.LoadBalancer,
    alto.ReservedIp,
    alto.ObjectStore,
    alto.ObjectStoreCredential,
    alto.Webhook,
]


def _text(props: dict[str, Any]) -> str:
    return json.dumps(json_format.MessageToDict(to_struct(props)))


@pytest.mark.parametrize("resource", RESOURCES, ids=lambda r: r.__name__)
def test_serialized_provider_is_tiny_and_holds_no_key(
    resource: type[AltostratusResource[Any]], emulator: Emulator
) -> None:
    provider = configure(resource._provider_class(), stack_config(emulator))
    provider.check({}, {})
    serialized = serialize_provider(provider)
    assert len(serialized) < 200
    raw = base64.b64decode(serialized)
    assert emulator.api_key.encode() not in raw and b"http" not in raw
    assert type(dill.loads(raw)) is resource._provider_class


def test_no_key_in_state_and_every_secret_output_listed(
    configured_client: Client, provider_engine: Engine, fresh_emulator: Emulator
) -> None:
    by_provider = {resource._provider_class: resource for resource in RESOURCES}
    deps = dependencies(configured_client, ("load_balancer_id", "firewall_id"))
    states = {}
    for scenario in SCENARIOS:
        outcome = provider_engine.up(scenario.provider, scenario.name, scenario.inputs(deps), None)
        states[scenario.name] = (scenario, outcome.state)
    credential = states["object_store_credential"][1].outputs
    store = states["object_store"][1].outputs
    secrets = {
        credential["access_key_id"],
        credential["secret_access_key"],
        store["access_key_id"],
        store["secret_access_key"],
        states["webhook"][1].outputs["secret"],
    }
    for scenario, state in states.values():
        assert fresh_emulator.api_key not in _text(state.outputs) + _text(state.inputs)
        resource = by_provider[type(scenario.provider)]
        for key, value in state.outputs.items():
            if any(secret in json.dumps(value) for secret in secrets):
                assert key in resource._secret_outputs, (resource.__name__, key)
