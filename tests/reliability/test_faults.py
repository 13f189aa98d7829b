"""A stack of all eight resources converges through the engine's path while the service fails.

Faults sit at fixed places (the next matching request), so every run meets the same ones:
503 and 500 answers, 429 with and without ``Retry-After``, dropped connections, slow answers,
and changes applied whose answer is lost. After create: exactly one record of each kind; after a
refresh that met a 5xx: the resource still in state; after destroy: nothing left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

import grpc
import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.support.engine import Engine, State

from .stack import STACK, Member, Outputs, inventory

Fault = dict[str, Any]

FAILED_503: Fault = {"status": 503}
FAILED_500: Fault = {"status": 500}
LIMITED: Fault = {"status": 429}
LIMITED_RETRY_AFTER: Fault = {"status": 429, "retry_after_seconds": 1}
DROPPED: Fault = {"drop_connection": True}
SLOW: Fault = {"delay_seconds": 0.2}
ANSWER_LOST: Fault = {"status": 503, "after_apply": True}
CONNECTION_LOST: Fault = {"drop_connection": True, "after_apply": True}

KIND_NAMES = {
    id(FAILED_503): "503",
    id(FAILED_500): "500",
    id(LIMITED): "429 without Retry-After",
    id(LIMITED_RETRY_AFTER): "429 with Retry-After",
    id(DROPPED): "dropped connection",
    id(SLOW): "slow answer",
    id(ANSWER_LOST): "applied, 503 answer",
    id(CONNECTION_LOST): "applied, connection dropped",
}

NETWORKS = "/v2/vpc/networks"
FIREWALLS = "/v2/vpc/firewalls"
RULES = "/v2/vpc/firewalls/"
BALANCERS = "/v2/vpc/loadbalancers"
ADDRESSES = "/v2/vpc/ips"
CREDENTIALS = "/v2/objectstore/credentials"
STORES = "/v2/objectstores"
WEBHOOKS = "/v2/webhooks"

Step = list[tuple[str, str, Fault]]
"""Faults for one operation: (method, path prefix, fault), in the order they will be met."""

CREATE: dict[str, Step] = {
    "network": [("POST", NETWORKS, ANSWER_LOST), ("GET", NETWORKS, LIMITED)],
    "firewall": [("POST", FIREWALLS, CONNECTION_LOST), ("GET", FIREWALLS, SLOW)],
    "rule": [("POST", RULES, LIMITED_RETRY_AFTER)],
    "balancer": [
        ("POST", BALANCERS, FAILED_503),
        ("GET", BALANCERS, SLOW),
        ("GET", BALANCERS, FAILED_503),
    ],
    "address": [("POST", ADDRESSES, DROPPED)],
    "credential": [("POST", CREDENTIALS, LIMITED)],
    "store": [
        ("POST", STORES, ANSWER_LOST),
        ("GET", STORES, FAILED_503),
        ("GET", CREDENTIALS, DROPPED),
    ],
    "webhook": [("POST", WEBHOOKS, CONNECTION_LOST)],
}
UPDATE: dict[str, Step] = {
    "network": [("PUT", NETWORKS, ANSWER_LOST)],
    "firewall": [("PUT", FIREWALLS, LIMITED)],
    "rule": [("PUT", RULES, DROPPED)],
    "balancer": [("PUT", BALANCERS, CONNECTION_LOST)],
    "address": [("PUT", ADDRESSES, FAILED_503)],
    "credential": [("PATCH", CREDENTIALS, LIMITED_RETRY_AFTER)],
    "store": [("PATCH", STORES, ANSWER_LOST)],
    "webhook": [("PUT", WEBHOOKS, DROPPED)],
}
READ_PATHS = {
    "network": NETWORKS,
    "firewall": FIREWALLS,
    "rule": RULES,
    "balancer": BALANCERS,
    "address": ADDRESSES,
    "credential": CREDENTIALS,
    "store": STORES,
    "webhook": WEBHOOKS,
}
DESTROY: dict[str, Step] = {
    "webhook": [("DELETE", WEBHOOKS, ANSWER_LOST)],
    "store": [("DELETE", STORES, CONNECTION_LOST)],
    "credential": [("DELETE", CREDENTIALS, FAILED_503)],
    "address": [("DELETE", ADDRESSES, LIMITED_RETRY_AFTER)],
    "balancer": [("DELETE", BALANCERS, DROPPED)],
    "rule": [("DELETE", RULES, ANSWER_LOST)],
    "firewall": [("DELETE", FIREWALLS, LIMITED)],
    "network": [("DELETE", NETWORKS, CONNECTION_LOST)],
}


def failed_by_fault(entry: dict[str, Any]) -> bool:
    """Whether an injected fault answered (or dropped) this request; nothing else fails so."""
    return entry["status"] is None or entry["status"] == 429 or entry["status"] >= 500


class FaultRun:
    """Injects each step's faults, runs the step, and checks that every fault was met."""

    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        self.failures: Counter[str] = Counter()
        self.delays: Counter[str] = Counter()
        self.met: Counter[str] = Counter()
        self.kinds: Counter[str] = Counter()

    def step(self, phase: str, faults: Step, action: Callable[[], Any]) -> Any:
        before = len(self.emulator.requests())
        for method, prefix, fault in faults:
            self.emulator.add_fault(method=method, path_prefix=prefix, **fault)
            self.kinds[KIND_NAMES[id(fault)]] += 1
        try:
            return action()
        finally:
            self.emulator.clear_faults()
            met = sum(1 for entry in self.emulator.requests()[before:] if failed_by_fault(entry))
            delays = sum(1 for _, _, fault in faults if "delay_seconds" in fault)
            self.failures[phase] += len(faults) - delays
            self.delays[phase] += delays
            self.met[phase] += met
            assert met == len(faults) - delays, (phase, faults)

    def summary(self) -> dict[str, Any]:
        log = self.emulator.requests()
        return {
            "requests": len(log),
            "requests_failed_by_faults": sum(1 for entry in log if failed_by_fault(entry)),
            "failing_faults_injected": dict(self.failures),
            "failing_faults_met": dict(self.met),
            "slow_answers_injected": dict(self.delays),
            "faults_by_kind": dict(self.kinds),
        }


def outputs_of(states: dict[str, State]) -> Outputs:
    return {name: {**state.outputs, "__id": state.id} for name, state in states.items()}


@pytest.mark.slow
def test_a_stack_converges_through_faults(
    client: Client,
    provider_engine: Engine,
    fresh_emulator: Emulator,
    record_property: Callable[[str, object], None],
) -> None:
    run = FaultRun(fresh_emulator)
    states: dict[str, State] = {}
    inputs: dict[str, dict[str, Any]] = {}
    one_each = {member.name: 1 for member in STACK}

    for member in STACK:
        inputs[member.name] = member.inputs(outputs_of(states))
        outcome = run.step(
            "create",
            CREATE[member.name],
            partial(provider_engine.up, member.provider, member.name, inputs[member.name], None),
        )
        assert outcome.operation == "create"
        states[member.name] = outcome.state
    after_create = inventory(client)
    assert after_create == one_each

    for member in STACK:
        inputs[member.name] = {**inputs[member.name], **member.update}
        outcome = run.step(
            "update",
            UPDATE[member.name],
            partial(
                provider_engine.up,
                member.provider,
                member.name,
                inputs[member.name],
                states[member.name],
            ),
        )
        assert outcome.operation == "update", (member.name, outcome.diff)
        for key, value in member.update.items():
            assert outcome.state.outputs[key] == value, (member.name, key)
        states[member.name] = outcome.state
    after_update = inventory(client)
    assert after_update == one_each

    for member in STACK:
        refresh_through_server_errors(run, provider_engine, member, states)
    assert inventory(client) == one_each

    for member in reversed(STACK):
        run.step(
            "destroy",
            DESTROY[member.name],
            partial(provider_engine.destroy, member.provider, member.name, states[member.name]),
        )
    after_destroy = inventory(client)
    assert after_destroy == dict.fromkeys(one_each, 0)

    summary = {
        **run.summary(),
        "after_create": after_create,
        "after_update": after_update,
        "after_destroy": after_destroy,
    }
    for key, value in summary.items():
        record_property(key, value)
    print("\nfault run:", *(f"  {key}: {value}" for key, value in summary.items()), sep="\n")


def refresh_through_server_errors(
    run: FaultRun, engine: Engine, member: Member, states: dict[str, State]
) -> None:
    """A 500 on the read fails the refresh and keeps the resource; a 503 is retried past."""
    state = states[member.name]
    prefix = READ_PATHS[member.name]
    with pytest.raises(grpc.RpcError) as raised:
        run.step(
            "refresh",
            [("GET", prefix, FAILED_500)],
            lambda: engine.refresh(member.provider, member.name, state),
        )
    assert "500" in str(raised.value.details())
    refreshed = run.step(
        "refresh",
        [("GET", prefix, FAILED_503)],
        lambda: engine.refresh(member.provider, member.name, state),
    )
    assert refreshed is not None and refreshed.id == state.id
    states[member.name] = refreshed
