"""The Pulumi engine's side of a dynamic provider, reproduced for tests and benchmarks.

``ProviderProcess`` starts ``python -m pulumi.dynamic`` (the process the engine starts for every
dynamic provider), reads the port it prints, and makes the engine's gRPC calls with Pulumi's own
stubs and serializer: ``Configure`` with the stack config, then ``Check``, ``Diff``, ``Create``,
``Read``, ``Update`` and ``Delete`` with the properties the engine sends (``Diff`` and ``Update``
get the old outputs and the checked new inputs; ``Read`` gets the old outputs and old inputs).

``Engine.up`` runs one resource of a program the way ``pulumi up`` does: check against the old
inputs, diff against the old outputs, then create, update or replace (re-checking with no old
inputs first, and deleting first when the provider asks for it).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import struct_pb2
from pulumi.dynamic import ResourceProvider
from pulumi.dynamic.dynamic import serialize_provider
from pulumi.runtime import rpc
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

PROVIDER_KEY = "__provider"


def to_struct(props: dict[str, Any]) -> struct_pb2.Struct:
    return asyncio.run(rpc.serialize_properties(props, {}))


def from_struct(struct: struct_pb2.Struct) -> dict[str, Any]:
    """Properties as the engine holds them: unknowns (preview) stay unknown."""
    return dict(rpc.deserialize_properties(struct, keep_unknowns=True))


class CheckFailed(Exception):
    def __init__(self, failures: list[tuple[str, str]]) -> None:
        super().__init__(f"check failed: {failures}")
        self.failures = failures


@dataclass
class State:
    """One resource as the engine keeps it in the stack's state."""

    id: str
    inputs: dict[str, Any]
    outputs: dict[str, Any]


@dataclass
class Outcome:
    state: State
    operation: str  # "create", "same", "update", "replace"
    diff: provider_pb2.DiffResponse | None = None
    steps: list[str] = field(default_factory=list)


class ProviderProcess:
    """A running ``python -m pulumi.dynamic`` and a channel to it."""

    def __init__(self, config: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pulumi.dynamic"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self.process.stdout is not None
        port = int(self.process.stdout.readline().strip())
        self.channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        self.stub = provider_pb2_grpc.ResourceProviderStub(self.channel)
        self.configure(config)

    def close(self) -> None:
        self.channel.close()
        self.process.terminate()
        self.process.wait(timeout=10)

    def configure(self, config: dict[str, str]) -> None:
        args = to_struct(dict(config))
        self.stub.Configure(provider_pb2.ConfigureRequest(args=args, acceptSecrets=False))

    def check(self, urn: str, olds: dict[str, Any], news: dict[str, Any]) -> dict[str, Any]:
        answer = self.stub.Check(
            provider_pb2.CheckRequest(urn=urn, olds=to_struct(olds), news=to_struct(news))
        )
        if answer.failures:
            raise CheckFailed([(f.property, f.reason) for f in answer.failures])
        return from_struct(answer.inputs)

    def check_failures(self, urn: str, news: dict[str, Any]) -> list[tuple[str, str]]:
        answer = self.stub.Check(
            provider_pb2.CheckRequest(urn=urn, olds=to_struct({}), news=to_struct(news))
        )
        return [(f.property, f.reason) for f in answer.failures]

    def diff(
        self, urn: str, id_: str, olds: dict[str, Any], news: dict[str, Any]
    ) -> provider_pb2.DiffResponse:
        request = provider_pb2.DiffRequest(
            id=id_, urn=urn, olds=to_struct(olds), news=to_struct(news)
        )
        answer: provider_pb2.DiffResponse = self.stub.Diff(request)
        return answer

    def create(self, urn: str, props: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        answer = self.stub.Create(provider_pb2.CreateRequest(urn=urn, properties=to_struct(props)))
        return answer.id, from_struct(answer.properties)

    def read(
        self, urn: str, id_: str, outputs: dict[str, Any], inputs: dict[str, Any]
    ) -> tuple[str, dict[str, Any], dict[str, Any]]:
        request = provider_pb2.ReadRequest(
            id=id_, urn=urn, properties=to_struct(outputs), inputs=to_struct(inputs)
        )
        answer = self.stub.Read(request)
        return answer.id, from_struct(answer.properties), from_struct(answer.inputs)

    def update(
        self, urn: str, id_: str, olds: dict[str, Any], news: dict[str, Any]
    ) -> dict[str, Any]:
        request = provider_pb2.UpdateRequest(
            id=id_, urn=urn, olds=to_struct(olds), news=to_struct(news)
        )
        return from_struct(self.stub.Update(request).properties)

    def delete(self, urn: str, id_: str, outputs: dict[str, Any]) -> None:
        request = provider_pb2.DeleteRequest(id=id_, urn=urn, properties=to_struct(outputs))
        self.stub.Delete(request)


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
        """One resource's step of ``pulumi up``, given what the program registered."""
        checked = self.process.check(urn, state.inputs if state else {}, news)
        if state is None:
            id_, outs = self.process.create(urn, checked)
            return Outcome(State(id_, checked, outs), "create", steps=["create"])
        diff = self.process.diff(urn, state.id, state.outputs, checked)
        if diff.changes != provider_pb2.DiffResponse.DIFF_SOME:
            return Outcome(state, "same", diff)
        if not diff.replaces:
            outs = self.process.update(urn, state.id, state.outputs, checked)
            return Outcome(State(state.id, checked, outs), "update", diff, ["update"])
        rechecked = self.process.check(urn, {}, news)
        steps = []
        if diff.deleteBeforeReplace:
            self.process.delete(urn, state.id, state.outputs)
            steps.append("delete")
        id_, outs = self.process.create(urn, rechecked)
        steps.append("create")
        if not diff.deleteBeforeReplace:
            self.process.delete(urn, state.id, state.outputs)
            steps.append("delete")
        return Outcome(State(id_, rechecked, outs), "replace", diff, steps)

    def refresh(self, provider: ResourceProvider, name: str, state: State) -> State | None:
        urn = self.urn(provider, name)
        id_, outs, inputs = self.process.read(urn, state.id, state.outputs, state.inputs)
        if not id_:
            return None
        return State(id_, inputs, outs)

    def destroy(self, provider: ResourceProvider, name: str, state: State) -> None:
        self.process.delete(self.urn(provider, name), state.id, state.outputs)
