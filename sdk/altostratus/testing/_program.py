"""Running a Pulumi program in this process, its registrations handed to the step generator.

The program runs under the Python SDK's mock runtime (``pulumi.runtime.set_mocks``) with a
monitor that answers the SDK's requests as the engine's resource monitor does
(``pkg/resource/deploy/source_eval.go``): ``RegisterResource`` goes to ``Deployment.register``
with everything the SDK sent (properties with secrets and unknowns, dependencies, additional
secret outputs, aliases, ``delete_before_replace``, ``import_``), ``ReadResource``
(``ResourceOptions(id=...)``) to ``Deployment.read``, and a ``StackReference`` gets the outputs
the caller supplies for that stack.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pulumi
from pulumi.runtime import rpc
from pulumi.runtime.mocks import MockCallArgs, MockMonitor, MockResourceArgs, Mocks
from pulumi.runtime.proto import resource_pb2
from pulumi.runtime.settings import SETTINGS, get_project, get_stack

from altostratus.testing._engine import Deployment
from altostratus.testing._project import run_project
from altostratus.testing._properties import Properties, from_struct, secret, to_struct
from altostratus.testing._state import STACK_TYPE, Goal
from altostratus.testing._steps import ResourceFailed

REFERENCE_TYPE = "pulumi:pulumi:StackReference"

Program = Callable[[], None] | Path
"""A function declaring resources, or a Pulumi project directory holding ``__main__.py``."""

Invoke = Callable[[str, dict[str, Any]], dict[str, Any]]
"""Answers a provider function call (``token``, arguments) of another provider."""


@dataclass(frozen=True)
class ConfigValue:
    """A stack configuration value, and whether it is a secret (``pulumi config set --secret``)."""

    value: str
    secret: bool = False


@dataclass(frozen=True)
class OutputValue:
    """A stack output and whether it is a secret (as ``pulumi.automation.OutputValue``)."""

    value: Any
    secret: bool = False


def full_key(project: str, key: str) -> str:
    """``key`` with its namespace: bare keys belong to the project."""
    return key if ":" in key else f"{project}:{key}"


def provider_inputs(project: str, config: Mapping[str, ConfigValue]) -> Properties:
    """The dynamic provider's inputs: the whole configuration, namespaced, secrets marked
    (``GetPackageConfig`` in ``pkg/resource/deploy/target.go``)."""
    return {
        full_key(project, key): secret(item.value) if item.secret else item.value
        for key, item in config.items()
    }


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
                self.deployment.fail(ResourceFailed(urn, "read", message))
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


def run(
    program: Program,
    monitor: EngineMonitor,
    *,
    project: str,
    stack: str,
    config: Mapping[str, ConfigValue],
    preview: bool,
) -> dict[str, OutputValue]:
    """Run ``program`` to its end in a fresh Pulumi runtime; the stack's outputs."""
    return contextvars.Context().run(_run, program, monitor, project, stack, dict(config), preview)


def _run(
    program: Program,
    monitor: EngineMonitor,
    project: str,
    stack: str,
    config: dict[str, ConfigValue],
    preview: bool,
) -> dict[str, OutputValue]:
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(_quiet_about_reported_failures)
    asyncio.set_event_loop(loop)
    _forget_earlier_runs()
    failed = True
    try:
        values = {full_key(project, key): item.value for key, item in config.items()}
        secrets = [full_key(project, key) for key, item in config.items() if item.secret]
        pulumi.runtime.set_all_config(values, secrets)
        pulumi.runtime.set_mocks(
            monitor.mocks, project=project, stack=stack, preview=preview, monitor=monitor
        )
        if isinstance(program, Path):
            run_project(program)
        else:
            program()
        outputs = loop.run_until_complete(_exports())
        failed = False
        return outputs
    finally:
        _forget_earlier_runs()
        for task in asyncio.all_tasks(loop):
            task.cancel()
        asyncio.set_event_loop(None)
        loop.close()
        if failed:
            _drop_abandoned_outputs()


def _drop_abandoned_outputs() -> None:
    """A failed program leaves Outputs whose coroutines never ran; collect them now, quietly,
    rather than let each warn later that it was never awaited (the failure is reported)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "coroutine .* was never awaited", RuntimeWarning)
        gc.collect()


def _quiet_about_reported_failures(
    loop: asyncio.AbstractEventLoop, context: dict[str, Any]
) -> None:
    """A failed resource fails every output that needs it; the operation's result reports the
    failure once, so the futures nobody awaited need not report it again."""
    if isinstance(context.get("exception"), ResourceFailed):
        return
    loop.default_exception_handler(context)


def _forget_earlier_runs() -> None:
    """Drop what a run left in the SDK's process-wide settings (as ``pulumi.runtime.test``
    does): a failed program leaves tasks of its closed event loop there."""
    SETTINGS.rpc_manager.clear()
    SETTINGS.outputs.clear()


async def _exports() -> dict[str, OutputValue]:
    from pulumi.runtime.stack import wait_for_rpcs

    await wait_for_rpcs()
    root = pulumi.runtime.get_root_resource()
    assert root is not None
    exported: dict[str, Any] = dict(getattr(root, "outputs", {}))
    outputs: dict[str, OutputValue] = {}
    for name, value in exported.items():
        output = pulumi.Output.from_input(value)
        outputs[name] = OutputValue(await output.future(), bool(await output.is_secret()))
    return outputs
