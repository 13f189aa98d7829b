"""One resource at a time through ``altostratus.testing``'s engine stand-in, for provider tests.

``Engine.up`` is a deployment of one resource: check against the old inputs, diff against the
old outputs, then create, update or replace (re-checked with no olds; the old resource deleted
at the end of the deployment, or first when the diff asks). ``State`` holds plain values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pulumi.dynamic import ResourceProvider
from pulumi.dynamic.dynamic import serialize_provider

from altostratus.testing.runner import (
    PROVIDER_KEY,
    CheckFailed,
    Deployment,
    DiffAnswer,
    Goal,
    ProviderProcess,
    ResourceFailed,
    ResourceState,
    Snapshot,
    StepEvent,
    Steps,
    from_struct,
    refresh_one,
    reveal,
    to_struct,
    urn_type,
)

__all__ = [
    "PROVIDER_KEY",
    "CheckFailed",
    "Engine",
    "Outcome",
    "ProviderProcess",
    "State",
    "from_struct",
    "to_struct",
]

_STEP_NAMES = {"create-replacement": "create", "delete-replaced": "delete"}


@dataclass
class State:
    """One resource as the engine keeps it in the stack's state (plain values)."""

    id: str
    inputs: dict[str, Any]
    outputs: dict[str, Any]


@dataclass
class Outcome:
    state: State
    operation: str  # "create", "same", "update", "replace"
    diff: DiffAnswer | None = None
    steps: list[str] = field(default_factory=list)


class Engine:
    """Runs resources of a program against a provider process, as ``pulumi up`` would."""

    def __init__(self, process: ProviderProcess) -> None:
        self.process = process

    @staticmethod
    def urn(provider: ResourceProvider, name: str) -> str:
        kind = type(provider).__name__.removesuffix("Provider")
        return f"urn:pulumi:test::test::pulumi-python:dynamic/altostratus:{kind}::{name}"

    @staticmethod
    def program_inputs(
        provider: ResourceProvider, name: str, inputs: dict[str, Any]
    ) -> dict[str, Any]:
        """What the resource class registers: the inputs, the name prefix, the provider."""
        props = {k: v for k, v in inputs.items() if v is not None}
        return {**props, "__name_prefix": name, PROVIDER_KEY: serialize_provider(provider)}

    def up(
        self, provider: ResourceProvider, name: str, inputs: dict[str, Any], state: State | None
    ) -> Outcome:
        urn = self.urn(provider, name)
        return self.apply(urn, self.program_inputs(provider, name, inputs), state)

    def apply(self, urn: str, news: dict[str, Any], state: State | None) -> Outcome:
        """A deployment of this one resource, given what the program registered."""
        type_ = urn_type(urn)
        old = [ResourceState(urn, type_, state.id, state.inputs, state.outputs)] if state else []
        events: list[StepEvent] = []
        deployment = Deployment(Snapshot(old), self.process, {}, on_event=events.append)
        goal = Goal(urn=urn, type=type_, name=urn.rsplit("::", 1)[-1], properties=news)
        try:
            deployment.register(goal)
        except ResourceFailed as failed:
            _raise(failed)
        after = deployment.finish()
        if deployment.failures:
            _raise(deployment.failures[0])
        new = after.get(urn)
        assert new is not None
        steps = [
            _STEP_NAMES.get(e.op, e.op)
            for e in events
            if e.status == "done" and e.op not in ("check", "diff")
        ]
        return Outcome(
            State(new.id, reveal(new.inputs), reveal(new.outputs)),
            deployment.operations[urn],
            deployment.diffs.get(urn),
            steps,
        )

    def refresh(self, provider: ResourceProvider, name: str, state: State) -> State | None:
        urn = self.urn(provider, name)
        res = ResourceState(urn, urn_type(urn), state.id, state.inputs, state.outputs)
        try:
            new = refresh_one(self.process, Steps(None, preview=False), res)
        except ResourceFailed as failed:
            _raise(failed)
        return None if new is None else State(new.id, reveal(new.inputs), reveal(new.outputs))

    def destroy(self, provider: ResourceProvider, name: str, state: State) -> None:
        self.process.delete(self.urn(provider, name), state.id, state.outputs)


def _raise(failed: ResourceFailed) -> Any:
    """The error the old harness raised: the check's failures or the provider call's error."""
    if failed.failures:
        raise CheckFailed([(f.property, f.reason) for f in failed.failures]) from None
    if failed.cause is not None:
        raise failed.cause
    raise failed
