"""The engine's resource monitor, as the program's runtime talks to it.

The monitor answers the SDK's requests as the engine's resource monitor does
(``pkg/resource/deploy/source_eval.go``): ``RegisterResource`` goes to ``Deployment.register``
with everything the SDK sent (properties with secrets and unknowns, dependencies, additional
secret outputs, aliases, ``delete_before_replace``, ``import_``), ``ReadResource``
(``ResourceOptions(id=...)``) to ``Deployment.read``, a ``StackReference`` gets the outputs
the caller supplies for that stack, and ``RegisterResourceOutputs`` of the root stack keeps the
stack's outputs as the SDK serialized them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from google.protobuf import empty_pb2, json_format
from pulumi.runtime import rpc
from pulumi.runtime.mocks import MockCallArgs, MockMonitor, MockResourceArgs, Mocks
from pulumi.runtime.proto import resource_pb2
from pulumi.runtime.settings import get_project, get_stack

from altostratus.testing._engine import Deployment
from altostratus.testing._properties import Properties, from_struct, to_struct
from altostratus.testing._state import STACK_TYPE, Goal
from altostratus.testing._steps import ResourceFailed

REFERENCE_TYPE = "pulumi:pulumi:StackReference"

Invoke = Callable[[str, dict[str, Any]], dict[str, Any]]
"""Answers a provider function call (``token``, arguments) of another provider."""


class _Calls(Mocks):
    def __init__(self, invoke: Invoke | None) -> None:
        self.invoke = invoke

    def call(self, args: MockCallArgs) -> tuple[dict[str, Any], None]:
        if self.invoke is None:
            raise NotImplementedError(f"no answer for the function {args.token}")
        return self.invoke(args.token, dict(args.args)), None

    def new_resource(self, args: MockResourceArgs) -> tuple[str, dict[str, Any]]:
        raise AssertionError("the engine monitor registers resources itself")


class EngineMonitor(MockMonitor):
    """The SDK's resource monitor, answering as the engine does (see the module docstring)."""

    def __init__(
        self,
        deployment: Deployment,
        references: Mapping[str, Mapping[str, Any]],
        invoke: Invoke | None = None,
    ) -> None:
        super().__init__(_Calls(invoke))
        self.deployment = deployment
        self.references = references
        self.stack_outputs: dict[str, Any] = {}

    def make_urn(self, parent: str, type_: str, name: str) -> str:
        """The URN the engine gives (``Deployment.generateURN`` in
        ``pkg/resource/deploy/deployment.go``): the parent's whole qualified type before the
        resource's, none for a child of the stack itself."""
        if parent:
            qualified = parent.split("::")[2]
            if qualified != STACK_TYPE:
                type_ = f"{qualified}${type_}"
        return "urn:pulumi:" + "::".join([get_stack(), get_project(), type_, name])

    def _aliases(self, request: Any, urn: str) -> list[str]:
        found = list(request.aliasURNs)
        for alias in request.aliases:
            if alias.urn:
                found.append(alias.urn)
                continue
            spec = alias.spec
            parent = "" if spec.noParent else (spec.parentUrn or request.parent)
            old = self.make_urn(parent, spec.type or request.type, spec.name or request.name)
            stack, project = spec.stack, spec.project
            if stack or project:
                parts = old.split("::")
                parts[0] = f"urn:pulumi:{stack or parts[0].removeprefix('urn:pulumi:')}"
                parts[1] = project or parts[1]
                old = "::".join(parts)
            if old != urn:
                found.append(old)
        return found

    def _goal(self, request: Any, urn: str, properties: Properties) -> Goal:
        dependencies = getattr(request, "propertyDependencies", {})
        return Goal(
            urn=urn,
            type=request.type,
            name=request.name,
            properties=properties,
            custom=bool(getattr(request, "custom", True)),
            parent=request.parent,
            dependencies=list(request.dependencies),
            property_dependencies={key: list(deps.urns) for key, deps in dependencies.items()},
            additional_secret_outputs=list(request.additionalSecretOutputs),
        )

    def RegisterResource(self, request: Any) -> Any:
        urn = self.make_urn(request.parent, request.type, request.name)
        if request.type == STACK_TYPE:
            return resource_pb2.RegisterResourceResponse(urn=urn)
        goal = self._goal(request, urn, from_struct(request.object))
        goal.aliases = self._aliases(request, urn)
        goal.import_id = request.importId
        if request.deleteBeforeReplaceDefined:
            goal.delete_before_replace = request.deleteBeforeReplace
        id_, outputs = self.deployment.register(goal)
        self.resources[urn] = MockMonitor.ResourceRegistration(urn, id_, outputs)
        return resource_pb2.RegisterResourceResponse(urn=urn, id=id_, object=to_struct(outputs))

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
            goal = self._goal(request, urn, from_struct(request.properties))
            goal.custom = True
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
