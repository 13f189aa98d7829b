"""Every resource through the engine's own path: `python -m pulumi.dynamic` over gRPC."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest
from pulumi.dynamic.dynamic import serialize_provider
from pulumi.output import Unknown
from pulumi.runtime import rpc

from altostratus.client import Client
from tests.support.engine import Engine, State

from .scenarios import IDS, SCENARIOS, Scenario, assert_filled, dependencies

UNIQUE_NAMES = [s for s in SCENARIOS if s.provider.naming == "name" and s.replace]
REPLACEABLE = [s for s in SCENARIOS if s.replace]
WEBHOOK = next(s for s in SCENARIOS if s.name == "webhook")


def _up(engine: Engine, scenario: Scenario, inputs: dict[str, Any], state: State | None) -> Any:
    return engine.up(scenario.provider, scenario.name, inputs, state)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_lifecycle_through_the_engine(
    configured_client: Client, provider_engine: Engine, scenario: Scenario
) -> None:
    deps = dependencies(configured_client, scenario.needs)
    inputs = scenario.inputs(deps)
    created = _up(provider_engine, scenario, inputs, None)
    assert created.operation == "create"
    assert_filled(created.state.outputs, scenario.checks)
    assert "__provider" in created.state.outputs

    again = _up(provider_engine, scenario, inputs, created.state)
    assert again.operation == "same"

    updated = _up(provider_engine, scenario, {**inputs, **scenario.update(deps)}, created.state)
    assert updated.operation == "update"
    assert updated.state.id == created.state.id
    assert _up(
        provider_engine, scenario, {**inputs, **scenario.update(deps)}, updated.state
    ).operation == ("same")

    scenario.outside(configured_client, updated.state.id, updated.state.outputs)
    refreshed = provider_engine.refresh(scenario.provider, scenario.name, updated.state)
    assert refreshed is not None
    key, value = scenario.drifted
    assert refreshed.outputs.get(key) == value
    assert refreshed.inputs.get(key) == value
    back = _up(provider_engine, scenario, {**inputs, **scenario.update(deps)}, refreshed)
    assert back.operation == "update"
    assert back.state.outputs.get(key) != value

    provider_engine.destroy(scenario.provider, scenario.name, back.state)
    assert provider_engine.refresh(scenario.provider, scenario.name, back.state) is None
    provider_engine.destroy(scenario.provider, scenario.name, back.state)


@pytest.mark.parametrize("scenario", REPLACEABLE, ids=lambda s: s.name)
def test_replacement_through_the_engine(
    configured_client: Client, provider_engine: Engine, scenario: Scenario
) -> None:
    deps = dependencies(configured_client, scenario.needs)
    inputs = scenario.inputs(deps)
    created = _up(provider_engine, scenario, inputs, None)
    replaced = _up(provider_engine, scenario, {**inputs, **scenario.replace}, created.state)
    assert replaced.operation == "replace"
    assert list(replaced.diff.replaces) == sorted(scenario.replace)
    assert replaced.steps == ["create", "delete"]
    assert replaced.state.id != created.state.id
    if scenario.provider.naming == "name":
        assert replaced.state.outputs["name"] != created.state.outputs["name"]
    assert provider_engine.refresh(scenario.provider, scenario.name, created.state) is None
    assert provider_engine.refresh(scenario.provider, scenario.name, replaced.state) is not None


@pytest.mark.parametrize("scenario", UNIQUE_NAMES, ids=lambda s: s.name)
def test_fixed_name_replacement_deletes_first(
    configured_client: Client, provider_engine: Engine, scenario: Scenario
) -> None:
    deps = dependencies(configured_client, scenario.needs)
    inputs = {**scenario.inputs(deps), "name": f"fixed-{scenario.name.replace('_', '-')}"}
    created = _up(provider_engine, scenario, inputs, None)
    replace = {"region": "FRA1"} if "region" in scenario.replace else scenario.replace
    replaced = _up(provider_engine, scenario, {**inputs, **replace}, created.state)
    assert replaced.operation == "replace"
    assert replaced.diff.deleteBeforeReplace is True
    assert replaced.steps == ["delete", "create"]
    assert replaced.state.outputs["name"] == inputs["name"]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_four_calls_at_once(
    configured_client: Client, provider_engine: Engine, scenario: Scenario
) -> None:
    deps = dependencies(configured_client, scenario.needs)
    inputs = scenario.inputs(deps)
    if scenario.name == "firewall_rule":
        variants = [{**inputs, "start_port": str(port)} for port in (22, 80, 443, 8080)]
    elif scenario.name == "network":
        variants = [{**inputs, "cidr_v4": f"10.4{n}.0.0/24"} for n in range(4)]
    else:
        variants = [inputs] * 4
    with ThreadPoolExecutor(4) as pool:
        created = list(pool.map(lambda i: _up(provider_engine, scenario, i, None).state, variants))
        assert len({state.id for state in created}) == 4
        read = list(
            pool.map(
                lambda s: provider_engine.refresh(scenario.provider, scenario.name, s), created
            )
        )
        assert [state.id for state in read if state] == [state.id for state in created]
        list(
            pool.map(
                lambda s: provider_engine.destroy(scenario.provider, scenario.name, s), created
            )
        )
    assert all(
        provider_engine.refresh(scenario.provider, scenario.name, s) is None for s in created
    )


def test_nothing_replaces_a_webhook(provider_engine: Engine, configured_client: Client) -> None:
    created = _up(provider_engine, WEBHOOK, WEBHOOK.inputs({}), None)
    changed = {"url": "http://other.example/", "events": ["*"], "secret": "x" * 40}
    updated = _up(provider_engine, WEBHOOK, changed, created.state)
    assert updated.operation == "update" and updated.state.id == created.state.id


def test_errors_other_than_not_found_are_raised_with_the_api_reason(
    configured_client: Client, provider_engine: Engine
) -> None:
    default = next(n for n in configured_client.networks.list() if n.default)
    network = next(s for s in SCENARIOS if s.name == "network")
    outputs = {"region": "LON1", "__provider": serialize_provider(network.provider)}
    state = State(default.id, {}, outputs)
    with pytest.raises(grpc.RpcError) as raised:
        provider_engine.destroy(network.provider, "net", state)
    message = raised.value.details()
    assert "could not delete network" in message and "409 network_delete_default" in message


def test_preview_lets_unknown_inputs_through(
    configured_client: Client, provider_engine: Engine
) -> None:
    scenario = next(s for s in SCENARIOS if s.name == "firewall")
    deps = dependencies(configured_client, scenario.needs)
    created = _up(provider_engine, scenario, scenario.inputs(deps), None)
    urn = provider_engine.urn(scenario.provider, scenario.name)
    news = provider_engine.program_inputs(
        scenario.provider, scenario.name, {"network_id": rpc.UNKNOWN}
    )
    checked = provider_engine.process.check(urn, created.state.inputs, news)
    assert isinstance(checked["network_id"], Unknown)
    diff = provider_engine.process.diff(urn, created.state.id, created.state.outputs, checked)
    assert diff.changes == diff.DIFF_SOME
    assert list(diff.replaces) == ["network_id"]


def test_generated_webhook_secret_stays_across_updates(
    configured_client: Client, provider_engine: Engine
) -> None:
    scenario = WEBHOOK
    created = _up(provider_engine, scenario, scenario.inputs({}), None)
    secret = created.state.outputs["secret"]
    updated = _up(provider_engine, scenario, scenario.update({}), created.state)
    assert updated.operation == "update"
    assert updated.state.outputs["secret"] == secret
    assert configured_client.webhooks.get(created.state.id).secret == secret
    chosen = _up(
        provider_engine, scenario, {**scenario.update({}), "secret": "s" * 40}, updated.state
    )
    assert chosen.state.outputs["secret"] == "s" * 40
