"""Transforms, run by the monitor as the engine runs them: over gRPC, in the program's process.

The SDK serves each transform (``ResourceOptions(transforms=...)``,
``pulumi.runtime.register_resource_transform``) on its callback server and sends the monitor a
``Callback`` (a target and a token). ``RegisterResource`` in
``pkg/resource/deploy/source_eval.go`` runs, before anything else, the resource's own
transforms, then those of each of its ancestors, then the stack's (in the order registered),
each seeing the previous one's properties and options (``wrapTransformCallback``). Values with
dependencies, secrets and unknowns go to the transform as output values (``upgradeOutputValues``,
``UpgradeToOutputValues``) and come back to plain ones (``downgradeOutputValues``); the
dependencies of a transformed resource are then its ``depends_on`` and those its output values
still carry.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any

import grpc
from google.protobuf import json_format, struct_pb2
from pulumi.runtime.proto import callback_pb2, callback_pb2_grpc, resource_pb2

from altostratus.testing._properties import UNKNOWN, Properties, from_struct

SIG = "4dabf18193072939515e22adb298388d"
SECRET = "1b47061264138c4ac30d75fd1eb44270"
OUTPUT = "d0e6a833031e9bbcd3f4e8bde6ca49a4"


class Transforms:
    """The transforms the program registered: the stack's, and each resource's own."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stack: list[Any] = []
        self._own: dict[str, list[Any]] = {}
        self._parents: dict[str, str] = {}
        self._channels: dict[str, grpc.Channel] = {}

    def register_stack(self, callback: Any) -> None:
        """``RegisterStackTransform``: applied to every resource registered from now on."""
        with self._lock:
            self._stack.append(callback)

    def registered(self, urn: str, parent: str, own: Iterable[Any]) -> None:
        """Keep a registered resource's own transforms for its descendants."""
        with self._lock:
            self._own[urn] = list(own)
            self._parents[urn] = parent

    def close(self) -> None:
        with self._lock:
            channels, self._channels = list(self._channels.values()), {}
        for channel in channels:
            channel.close()

    def to_run(self, parent: str, own: Iterable[Any]) -> list[Any]:
        """The resource's own transforms, then its ancestors', then the stack's."""
        found = list(own)
        with self._lock:
            current = parent
            while current:
                found += self._own.get(current, [])
                current = self._parents.get(current, "")
            found += self._stack
        return found

    def apply(
        self,
        callbacks: list[Any],
        request: Any,
        opts: Any,
        property_dependencies: Mapping[str, list[str]],
    ) -> tuple[Properties, Any, list[str], dict[str, list[str]]]:
        """Run ``callbacks`` in turn; the properties, options, dependencies and property
        dependencies they leave.

        As the engine does, only a resource with transforms of its own has its dependencies
        passed to them and taken back from them; one transformed by its ancestors' or the
        stack's only keeps its own.
        """
        own = bool(request.transforms)
        given = property_dependencies if own else {}
        props = _upgraded(json_format.MessageToDict(request.object), given)
        for callback in callbacks:
            transform = resource_pb2.TransformRequest(
                type=request.type,
                name=request.name,
                custom=request.custom,
                parent=request.parent,
                properties=json_format.ParseDict(props, struct_pb2.Struct()),
                options=opts,
            )
            answer = self._stub(callback.target).Invoke(
                callback_pb2.CallbackInvokeRequest(
                    token=callback.token, request=transform.SerializeToString()
                )
            )
            response = resource_pb2.TransformResponse.FromString(answer.response)
            if response.HasField("properties"):
                props = json_format.MessageToDict(response.properties)
            if response.HasField("options"):
                opts = response.options
        by_key: dict[str, list[str]] = {}
        plain = {
            key: _downgraded(value, by_key.setdefault(key, [])) for key, value in props.items()
        }
        properties = from_struct(json_format.ParseDict(plain, struct_pb2.Struct()))
        if own:
            dependencies = list(opts.depends_on)
        else:
            dependencies = list(request.dependencies)
            for key, urns in property_dependencies.items():
                by_key[key] = [*urns, *(u for u in by_key.get(key, []) if u not in urns)]
        for urns in by_key.values():
            dependencies += [urn for urn in urns if urn not in dependencies]
        return properties, opts, dependencies, by_key

    def _stub(self, target: str) -> Any:
        with self._lock:
            channel = self._channels.get(target)
            if channel is None:
                channel = self._channels[target] = grpc.insecure_channel(target)
        return callback_pb2_grpc.CallbacksStub(channel)


def _upgraded(props: dict[str, Any], dependencies: Mapping[str, list[str]]) -> dict[str, Any]:
    """Secrets and unknowns as output values at any depth, and each property with
    dependencies as an output value carrying them."""
    found = {key: _as_output(value) for key, value in props.items()}
    for key, urns in dependencies.items():
        if key not in found or not urns:
            continue
        value = found[key]
        if isinstance(value, dict) and value.get(SIG) == OUTPUT:
            value["dependencies"] = sorted({*value.get("dependencies", []), *urns})
        else:
            found[key] = {SIG: OUTPUT, "value": value, "dependencies": sorted(set(urns))}
    return found


def _as_output(value: Any) -> Any:
    if value == UNKNOWN:
        return {SIG: OUTPUT}
    if isinstance(value, dict):
        if value.get(SIG) == SECRET:
            inner = _as_output(value.get("value"))
            if isinstance(inner, dict) and inner.get(SIG) == OUTPUT:
                return {**inner, "secret": True}
            return {SIG: OUTPUT, "value": inner, "secret": True}
        return {key: _as_output(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_output(item) for item in value]
    return value


def _downgraded(value: Any, dependencies: list[str]) -> Any:
    """Output values back to plain (secret, unknown) values; their dependencies collected."""
    if isinstance(value, dict):
        if value.get(SIG) == OUTPUT:
            dependencies += [
                urn for urn in value.get("dependencies", []) if urn not in dependencies
            ]
            inner = _downgraded(value["value"], dependencies) if "value" in value else UNKNOWN
            return {SIG: SECRET, "value": inner} if value.get("secret") else inner
        return {key: _downgraded(item, dependencies) for key, item in value.items()}
    if isinstance(value, list):
        return [_downgraded(item, dependencies) for item in value]
    return value
