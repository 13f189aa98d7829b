"""The engine's resource monitor, as the program's runtime talks to it.

The monitor answers the SDK's requests as the engine's resource monitor does
(``pkg/resource/deploy/source_eval.go``): ``RegisterResource`` runs the transforms that apply
(``transforms``), reads the options (``options``: those a child inherits from its parent, and
those the runner refuses) and goes to ``Deployment.register`` with everything the SDK sent
(properties with secrets and unknowns, dependencies, options), ``ReadResource``
(``ResourceOptions(id=...)``) to ``Deployment.read``, a ``StackReference`` gets the outputs
the caller supplies for that stack, and ``RegisterResourceOutputs`` of the root stack keeps the
stack's outputs as the SDK serialized them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

import grpc
from google.protobuf import empty_pb2, json_format
from pulumi.runtime import rpc
from pulumi.runtime.mocks import MockCallArgs, MockMonitor, MockResourceArgs, Mocks
from pulumi.runtime.proto import resource_pb2
from pulumi.runtime.settings import get_project, get_stack

from altostratus.testing._properties import Properties, from_struct, to_struct
from altostratus.testing._results import PLUGIN, STACK_TYPE, front_of
from altostratus.testing.runner.aliases import create_urn
from altostratus.testing.runner.deployment import Deployment
from altostratus.testing.runner.fronts import Providers
from altostratus.testing.runner.options import goal_of, inherit_from_parent, options_of, refused
from altostratus.testing.runner.process import call_failure
from altostratus.testing.runner.state import Goal
from altostratus.testing.runner.steps import ResourceFailed
from altostratus.testing.runner.transforms import Transforms

REFERENCE_TYPE = "pulumi:pulumi:StackReference"

Invoke = Callable[[str, dict[str, Any]], dict[str, Any]]
"""Answers a provider function call (``token``, arguments) of another provider."""


class _Calls(Mocks):
    def __init__(self, invoke: Invoke | None, providers: Providers | None = None) -> None:
        self.invoke = invoke
        self.providers = providers

    def call(self, args: MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        """The function's answer, with no failures (a failed call raises)."""
        if self.providers is not None and front_of(args.token) == PLUGIN:
            # A function of the provider plugin: its provider's process answers it.
            return self.providers.invoke(args.token, dict(args.args), args.provider), []
        if self.invoke is None:
            raise NotImplementedError(f"no answer for the function {args.token}")
        return self.invoke(args.token, dict(args.args)), []

    def new_resource(self, args: MockResourceArgs) -> tuple[str, dict[str, Any]]:
        raise AssertionError("the engine monitor registers resources itself")


class EngineMonitor(MockMonitor):
    """The SDK's resource monitor, answering as the engine does (see the module docstring)."""

    stands_for_engine = True
    """Lookups run as under the engine, against the service, not as invokes to mocks."""

    def __init__(
        self,
        deployment: Deployment,
        references: Mapping[str, Mapping[str, Any]],
        invoke: Invoke | None = None,
        providers: Providers | None = None,
    ) -> None:
        """``providers`` answers the provider plugin's functions; ``invoke`` the others."""
        super().__init__(_Calls(invoke, providers))
        self.deployment = deployment
        self.references = references
        self.goals: dict[str, Goal] = {}  # each registration's goal, for its children
        self.transforms = Transforms()
        self._lock = threading.Lock()
        self.stack_outputs: dict[str, Any] = {}

    def make_urn(self, parent: str, type_: str, name: str) -> str:
        """The URN the engine gives (``Deployment.generateURN`` in
        ``pkg/resource/deploy/deployment.go``): the parent's whole qualified type before the
        resource's, none for a child of the stack itself."""
        return create_urn(get_stack(), get_project(), parent, type_, name)

    def RegisterResource(self, request: Any) -> Any:
        urn = self.make_urn(request.parent, request.type, request.name)
        if request.type == STACK_TYPE:
            return resource_pb2.RegisterResourceResponse(urn=urn)
        opts = options_of(request)
        with self._lock:
            inherit_from_parent(opts, self.goals.get(request.parent))
        dependencies = list(request.dependencies)
        by_key = {key: list(deps.urns) for key, deps in request.propertyDependencies.items()}
        transforms = self.transforms.to_run(request.parent, request.transforms)
        if transforms:
            properties, opts, dependencies, by_key = self._transformed(
                urn, transforms, request, opts, by_key
            )
        else:
            properties = from_struct(request.object)
        refusal = refused(request, opts)
        if refusal is not None:
            self.deployment.fail(ResourceFailed(urn, "register", refusal))
        goal = goal_of(urn, request, properties, opts, dependencies, by_key)
        id_, outputs = self.deployment.register(goal)
        with self._lock:
            self.goals[urn] = goal
        self.transforms.registered(urn, request.parent, request.transforms)
        self.resources[urn] = MockMonitor.ResourceRegistration(urn, id_, outputs)
        return resource_pb2.RegisterResourceResponse(urn=urn, id=id_, object=to_struct(outputs))

    def _transformed(
        self, urn: str, transforms: list[Any], request: Any, opts: Any, by_key: dict[str, list[str]]
    ) -> tuple[Properties, Any, list[str], dict[str, list[str]]]:
        try:
            return self.transforms.apply(transforms, request, opts, by_key)
        except grpc.RpcError as error:
            # ``invoke transform: ...``: the transform raised (its message is in the details).
            message = f"invoke transform: {call_failure(error)}"
            self.deployment.fail(ResourceFailed(urn, "register", message, cause=error))

    def RegisterStackTransform(self, request: Any) -> Any:
        self.transforms.register_stack(request)
        return empty_pb2.Empty()

    def close(self) -> None:
        """Let go of the connections to the program's callback server."""
        self.transforms.close()

    def ReadResource(self, request: Any) -> Any:
        urn = self.make_urn(request.parent, request.type, request.name)
        if request.type == REFERENCE_TYPE:
            # The builtin provider reads the stack its ``name`` input names (``StackReference``'s
            # ``stack_name``, by default the resource's name): ``readStackReference`` in
            # ``pkg/resource/deploy/builtins.go``.
            stack = str(from_struct(request.properties).get("name") or request.id)
            if stack not in self.references:
                message = (
                    f"no outputs given for the stack reference {stack!r}: give them "
                    "with Stack(references=...) or stack.set_reference(...)"
                )
                self.deployment.fail(ResourceFailed(urn, "read", message, reference=stack))
            given = dict(self.references[stack])
            secrets = [key for key, value in given.items() if rpc.is_rpc_secret(value)]
            outputs = {"name": stack, "outputs": given, "secretOutputNames": secrets}
            id_ = stack
        else:
            goal = Goal(
                urn=urn,
                type=request.type,
                name=request.name,
                properties=from_struct(request.properties),
                parent=request.parent,
                dependencies=list(request.dependencies),
                additional_secret_outputs=list(request.additionalSecretOutputs),
                provider=request.provider,
            )
            id_, outputs = self.deployment.read(goal, request.id)
        self.resources[urn] = MockMonitor.ResourceRegistration(urn, id_, outputs)
        return resource_pb2.ReadResourceResponse(urn=urn, properties=to_struct(outputs))

    def RegisterResourceOutputs(self, request: Any) -> Any:
        """The root stack's outputs, kept as the engine keeps them; other resources' are not
        stored (the runner keeps no outputs of components)."""
        if request.urn.split("::")[2] == STACK_TYPE:
            # Decoded as JSON, not with the SDK's ``deserialize_properties``, which would mark an
            # object secret as a whole for one secret inside it: the engine keeps it inside.
            self.stack_outputs = json_format.MessageToDict(request.outputs)
        return empty_pb2.Empty()
