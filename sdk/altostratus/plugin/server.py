"""The provider plugin: ``pulumi-resource-altostratus``, Pulumi's ResourceProvider gRPC service.

The engine starts it (found on PATH, or in Pulumi's plugin folder, see ``altostratus.cli``'s
``plugin install``) with its own address as the first argument, reads the port it prints, and
calls it for one provider instance: the default provider of the stack's configuration, or one
explicit provider (``altostratus.Provider``). One process serves one instance, so the settings
live at process level (``providers._config``) as in the dynamic provider's process, and the
process ends when the engine goes (``providers._lifetime``).

Every resource call is dispatched by its type token (``altostratus:index:<Name>``) to the same
provider class the dynamic resource uses (``altostratus.providers.*``): one check, diff, create,
read, update and delete per kind. Values cross the wire as the schema names them
(``names.to_wire``/``from_wire``); the resource name the automatic names start from is the URN's.
Unknowns pass through in preview (the engine's sentinel is kept as such), secrets are accepted
unwrapped and sent back wrapped: the outputs the schema marks secret and every output of an input
that came secret. A failing call answers one line (the providers' ``ProviderError`` names the
operation and the resource), with the traceback only under ``altostratus:debug``.

The lookups (``altostratus:index:get<Name>``) are answered by Invoke with the same functions a
Python program calls (``altostratus.lookups``), in this process's configuration.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from concurrent import futures
from contextlib import contextmanager
from typing import Any

import grpc
from google.protobuf import empty_pb2, struct_pb2
from pulumi.runtime import rpc
from pulumi.runtime.proto import (
    engine_pb2,
    engine_pb2_grpc,
    plugin_pb2,
    provider_pb2,
    provider_pb2_grpc,
)

from altostratus._version import package_version
from altostratus.client.errors import AltostratusError
from altostratus.plugin import names
from altostratus.providers import _config, _lifetime, _threads
from altostratus.providers._adopt import ADOPT_ID
from altostratus.providers._base import Provider, ProviderError
from altostratus.providers._inputs import AUTONAMING, NAME_PREFIX, READ_GIVEN
from altostratus.providers._resource import AltostratusResource
from altostratus.providers._validate import is_unknown
from altostratus.providers._wait import WaitFailed

CONFIG_PREFIX = f"{names.PACKAGE}:"
VARIABLES_PREFIX = f"{names.PACKAGE}:config:"
"""A setting's key in ``ConfigureRequest.variables``, as the engine spells it."""
_AUTONAMING_MODES = {
    provider_pb2.CheckRequest.AutonamingOptions.PROPOSE: "propose",
    provider_pb2.CheckRequest.AutonamingOptions.ENFORCE: "enforce",
    provider_pb2.CheckRequest.AutonamingOptions.DISABLE: "disable",
}
"""The engine's autonaming modes, as the providers' check takes them."""
_HIDDEN = frozenset({NAME_PREFIX, READ_GIVEN, ADOPT_ID, "__provider"})


def resource_classes() -> dict[str, type[AltostratusResource[Any]]]:
    """The eight resources by type token."""
    from altostratus import providers

    classes = [getattr(providers, name) for name in providers.__all__]
    return {
        names.token(cls.__name__): cls
        for cls in classes
        if isinstance(cls, type) and issubclass(cls, AltostratusResource)
    }


class _Failure(Exception):
    """A call's failure, already worded as the one line the engine shows."""


def _plain(struct: struct_pb2.Struct | None) -> tuple[dict[str, Any], set[str]]:
    """A request's properties as plain values (unknowns kept), and the names that were secret."""
    if struct is None:
        return {}, set()
    values = rpc.deserialize_properties(struct, keep_unknowns=True)
    secret: set[str] = set()
    plain: dict[str, Any] = {}
    for key, value in dict(values or {}).items():
        unwrapped, was_secret = _unwrap(value)
        plain[key] = unwrapped
        if was_secret:
            secret.add(key)
    return plain, secret


def _unwrap(value: Any) -> tuple[Any, bool]:
    if rpc.is_rpc_secret(value):
        return _unwrap(rpc.unwrap_rpc_secret(value))[0], True
    if isinstance(value, dict):
        pairs = {key: _unwrap(item) for key, item in value.items()}
        return {k: v for k, (v, _) in pairs.items()}, any(s for _, s in pairs.values())
    if isinstance(value, list):
        items = [_unwrap(item) for item in value]
        return [v for v, _ in items], any(s for _, s in items)
    return value, False


def _struct(values: dict[str, Any], secret: frozenset[str] | set[str] = frozenset()) -> Any:
    """Plain values as a request's Struct, the names in ``secret`` wrapped as secrets."""
    struct = struct_pb2.Struct()
    struct.update(
        {
            key: rpc.wrap_rpc_secret(_sent(value))
            if key in secret and value is not None
            else _sent(value)
            for key, value in values.items()
        }
    )
    return struct


def _sent(value: Any) -> Any:
    """A value as a Struct holds it: an unknown as the engine's sentinel, tuples as lists."""
    if is_unknown(value):
        return rpc.UNKNOWN
    if isinstance(value, dict):
        return {key: _sent(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_sent(item) for item in value]
    return value


def _name_of(urn: str) -> str:
    """The resource's name: the URN's last part."""
    return urn.split("::")[-1] if urn else ""


def _variable_key(key: str) -> str:
    """A setting's name from a key of ``ConfigureRequest.variables``, spelt ``<pkg>:config:<key>``
    by the engine (``<pkg>:<key>`` taken too)."""
    return key.removeprefix(VARIABLES_PREFIX).removeprefix(CONFIG_PREFIX)


def _whole_number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def normalised_url(url: Any) -> str | None:
    """An API URL as it names the service: no trailing ``/`` nor ``/v2``."""
    if url is None or url == "":
        return None
    text = str(url).strip().rstrip("/")
    return text.removesuffix("/v2").rstrip("/")


class Kind:
    """One resource kind as the plugin serves it: its provider and its schema's properties."""

    def __init__(self, type_token: str, resource: type[AltostratusResource[Any]]) -> None:
        self.token = type_token
        self.resource = resource
        self.provider: Provider[Any] = resource._provider_class()
        self.properties = names.resource_properties(type_token)
        spec = names.schema()["resources"][type_token]
        self.secret = {key for key, value in spec["properties"].items() if value.get("secret")}
        self.secret |= {
            key for key, value in spec["inputProperties"].items() if value.get("secret")
        }
        self.outputs = list(spec["properties"])

    def inputs(self, struct: struct_pb2.Struct | None) -> tuple[dict[str, Any], set[str]]:
        values, secret = _plain(struct)
        named = {names.snake(key) if key in self.properties else key for key in secret}
        return names.from_wire(values, self.properties), named

    def answer(self, values: dict[str, Any], secret: set[str]) -> struct_pb2.Struct:
        wire = names.to_wire(values, self.properties)
        wired_secret = {names.camel(key) for key in secret} | self.secret
        return _struct(wire, wired_secret)

    def located(self, id_: str, props: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """A firewall rule's ``<firewall_id>:<rule_id>`` (its import id) as the rule's id and
        the firewall it is read under."""
        reference = self.provider.reference
        if self.provider.read_under_reference and reference is not None and ":" in id_:
            parent, _, own = id_.partition(":")
            if props.get(reference) in (None, parent):
                return own, {**props, reference: parent}
        return id_, props


class Servicer(provider_pb2_grpc.ResourceProviderServicer):
    """Pulumi's ResourceProvider service over the package's providers."""

    def __init__(self, engine: str | None) -> None:
        self._engine_address = engine
        self._engine: Any = None
        self._kinds = {token: Kind(token, cls) for token, cls in resource_classes().items()}
        self._warned: set[str] = set()
        self._lock = threading.Lock()

    # -- the engine's log ---------------------------------------------------------------------
    def warn(self, message: str, urn: str = "") -> None:
        """A warning on the engine's output (else on the plugin's standard error)."""
        try:
            if self._engine is None and self._engine_address:
                channel = grpc.insecure_channel(self._engine_address)
                self._engine = engine_pb2_grpc.EngineStub(channel)
            if self._engine is not None:
                request = engine_pb2.LogRequest(
                    severity=engine_pb2.WARNING, message=message, urn=urn
                )
                self._engine.Log(request)
                return
        except grpc.RpcError:
            pass
        print(f"warning: {message}", file=sys.stderr)

    # -- the plugin ---------------------------------------------------------------------------
    def GetPluginInfo(self, request: Any, context: Any) -> Any:
        return plugin_pb2.PluginInfo(version=package_version())

    def GetSchema(self, request: Any, context: Any) -> Any:
        from importlib import resources

        text = resources.files(names.PACKAGE).joinpath("schema.json").read_text(encoding="utf-8")
        return provider_pb2.GetSchemaResponse(schema=text)

    def Cancel(self, request: Any, context: Any) -> Any:
        return empty_pb2.Empty()

    def Attach(self, request: Any, context: Any) -> Any:
        return empty_pb2.Empty()

    # -- configuration ------------------------------------------------------------------------
    def _unknown_keys(self, values: dict[str, Any], urn: str) -> None:
        known = names.config_properties()
        for key in sorted(values):
            if key in known or key == "version" or key.startswith("__"):
                continue
            with self._lock:
                if key in self._warned:
                    continue
                self._warned.add(key)
            self.warn(
                f"{CONFIG_PREFIX}{key} is not a setting of the altostratus provider "
                f"(ignored); the settings are {', '.join(CONFIG_PREFIX + k for k in known)}",
                urn,
            )

    def CheckConfig(self, request: Any, context: Any) -> Any:
        values, _ = _plain(request.news)
        self._unknown_keys(values, request.urn)
        failures = []
        asked = values.get("version")
        if isinstance(asked, str) and asked and asked != package_version():
            failures.append(
                provider_pb2.CheckFailure(
                    property="version",
                    reason=f"the program's altostratus SDK is version {asked} but the provider "
                    f"plugin pulumi-resource-altostratus is version {package_version()}: install "
                    "the same version of both",
                )
            )
        return provider_pb2.CheckResponse(inputs=request.news, failures=failures)

    def DiffConfig(self, request: Any, context: Any) -> Any:
        olds, _ = _plain(request.olds)
        news, _ = _plain(request.news)
        keys = set(names.config_properties())
        if any(news.get(key) == rpc.UNKNOWN for key in keys):
            return provider_pb2.DiffResponse(changes=provider_pb2.DiffResponse.DIFF_UNKNOWN)
        changed = sorted(
            key for key in keys if _whole_number(olds.get(key)) != _whole_number(news.get(key))
        )
        replaces = []
        # Old settings holding none of the keys come from another provider (the dynamic one of
        # a stack moving to the plugin, which reads the stack's configuration itself): the
        # resources' own diffs decide.
        ours = any(olds.get(key) is not None for key in keys)
        if ours and normalised_url(olds.get("apiUrl")) != normalised_url(news.get("apiUrl")):
            replaces.append("apiUrl")
        else:
            changed = [key for key in changed if key != "apiUrl"]
        detailed = {
            key: provider_pb2.PropertyDiff(
                kind=provider_pb2.PropertyDiff.UPDATE_REPLACE
                if key in replaces
                else provider_pb2.PropertyDiff.UPDATE
            )
            for key in changed
        }
        return provider_pb2.DiffResponse(
            changes=provider_pb2.DiffResponse.DIFF_SOME
            if changed
            else provider_pb2.DiffResponse.DIFF_NONE,
            replaces=replaces,
            diffs=changed,
            detailedDiff=detailed,
            hasDetailedDiff=True,
        )

    def Configure(self, request: Any, context: Any) -> Any:
        return self._answer(lambda: self._configure(request), context)

    def _configure(self, request: Any) -> Any:
        values, _ = _plain(request.args) if request.HasField("args") else ({}, set())
        if not values:  # an engine sending only the deprecated ``variables``
            values = {_variable_key(key): value for key, value in request.variables.items()}
        self._unknown_keys(values, "")
        settings = {
            f"{CONFIG_PREFIX}{key}": _whole_number(value)
            for key, value in values.items()
            if value is not None and not key.startswith("__") and key != "version"
        }
        with self._call("configure the provider", ""):
            _config.configure(settings)
            _threads.serve_at_once(_config.provider_threads())
        _lifetime.end_with_engine()
        return provider_pb2.ConfigureResponse(
            acceptSecrets=True,
            supportsPreview=True,
            acceptResources=False,
            acceptOutputs=False,
            supports_autonaming_configuration=True,
        )

    # -- resources ----------------------------------------------------------------------------
    def _kind(self, type_token: str) -> Kind:
        kind = self._kinds.get(type_token)
        if kind is None:
            raise _Failure(f"the altostratus provider has no resource type {type_token}")
        return kind

    @contextmanager
    def _call(self, what: str, urn: str) -> Iterator[None]:
        """A provider call's failure as one line (with the traceback under debug)."""
        try:
            yield
        except (ProviderError, AltostratusError, WaitFailed, ValueError, _Failure) as error:
            raise _Failure(self._worded(error, what, urn)) from None
        except Exception as error:  # any failure is the engine's one line
            message = f"{type(error).__name__}: {error}"
            raise _Failure(self._worded(message, what, urn)) from None

    def _worded(self, error: object, what: str, urn: str) -> str:
        text = str(error)
        if isinstance(error, ProviderError):
            line = text
        else:
            name = _name_of(urn)
            line = f"could not {what} {name!r}: {text}" if name else f"could not {what}: {text}"
        if _config.debug():
            line += "\n" + traceback.format_exc()
        return line

    def Check(self, request: Any, context: Any) -> Any:
        def run() -> Any:
            kind = self._kind(request.type)
            olds, _ = kind.inputs(request.olds)
            news, secret = kind.inputs(request.news)
            news.setdefault(NAME_PREFIX, _name_of(request.urn))
            if request.HasField("autonaming"):
                news[AUTONAMING] = {
                    "proposed_name": request.autonaming.proposed_name,
                    "mode": _AUTONAMING_MODES.get(request.autonaming.mode, "propose"),
                }
            with self._call(f"check the {kind.provider.kind}", request.urn):
                result = kind.provider.check(olds, news)
            failures = [
                provider_pb2.CheckFailure(
                    property=names.camel(failure.property),
                    reason=_spelt(failure.reason, failure.property),
                )
                for failure in result.failures
            ]
            inputs = dict(result.inputs or {})
            return provider_pb2.CheckResponse(
                inputs=kind.answer(inputs, secret & set(inputs)), failures=failures
            )

        return self._answer(run, context)

    def Diff(self, request: Any, context: Any) -> Any:
        def run() -> Any:
            kind = self._kind(request.type)
            olds, _ = kind.inputs(request.olds)
            news, _ = kind.inputs(request.news)
            id_, olds = kind.located(request.id, olds)
            with self._call(f"diff the {kind.provider.kind}", request.urn):
                changed = kind.provider._changed(olds, news)
                result = kind.provider.diff(id_, olds, news)
            replaces = [names.camel(name) for name in result.replaces or []]
            diffs = [names.camel(name) for name in changed]
            detailed = {
                name: provider_pb2.PropertyDiff(
                    kind=provider_pb2.PropertyDiff.UPDATE_REPLACE
                    if name in replaces
                    else provider_pb2.PropertyDiff.UPDATE,
                    inputDiff=True,
                )
                for name in diffs
            }
            return provider_pb2.DiffResponse(
                changes=provider_pb2.DiffResponse.DIFF_SOME
                if result.changes
                else provider_pb2.DiffResponse.DIFF_NONE,
                replaces=replaces,
                deleteBeforeReplace=bool(result.delete_before_replace),
                diffs=diffs,
                detailedDiff=detailed,
                hasDetailedDiff=True,
            )

        return self._answer(run, context)

    def Create(self, request: Any, context: Any) -> Any:
        def run() -> Any:
            kind = self._kind(request.type)
            props, secret = kind.inputs(request.properties)
            if request.preview:
                outs = dict(props)
                for name in kind.outputs:
                    outs.setdefault(names.snake(name), rpc.UNKNOWN)
                return provider_pb2.CreateResponse(properties=kind.answer(outs, secret))
            with self._call(f"create the {kind.provider.kind}", request.urn):
                result = kind.provider.create(props)
            outs = dict(result.outs or {})
            return provider_pb2.CreateResponse(
                id=str(result.id), properties=kind.answer(outs, secret)
            )

        return self._answer(run, context)

    def Read(self, request: Any, context: Any) -> Any:
        def run() -> Any:
            kind = self._kind(request.type)
            props, secret = kind.inputs(request.properties)
            given, _ = kind.inputs(request.inputs)
            if props and props == given and READ_GIVEN not in props:
                # The first read of ``get`` (the engine sends what locates the record as both).
                props[READ_GIVEN] = {k: v for k, v in props.items() if v is not None}
            id_, props = kind.located(request.id, props)
            with self._call(f"read the {kind.provider.kind}", request.urn):
                result = kind.provider.read(id_, props)
            if result.id is None:
                return provider_pb2.ReadResponse()
            outs = dict(result.outs or {})
            inputs = dict(result.inputs or {})
            if not props:
                # An import: the record's name is kept as the automatic one of the resource.
                inputs[NAME_PREFIX] = _name_of(request.urn)
            return provider_pb2.ReadResponse(
                id=str(result.id),
                properties=kind.answer(outs, secret),
                inputs=kind.answer(inputs, secret & set(inputs)),
            )

        return self._answer(run, context)

    def Update(self, request: Any, context: Any) -> Any:
        def run() -> Any:
            kind = self._kind(request.type)
            olds, old_secret = kind.inputs(request.olds)
            news, secret = kind.inputs(request.news)
            id_, olds = kind.located(request.id, olds)
            if request.preview:
                outs = {**olds, **news}
                return provider_pb2.UpdateResponse(
                    properties=kind.answer(outs, secret | old_secret)
                )
            with self._call(f"update the {kind.provider.kind}", request.urn):
                result = kind.provider.update(id_, olds, news)
            outs = dict(result.outs or {})
            return provider_pb2.UpdateResponse(properties=kind.answer(outs, secret | old_secret))

        return self._answer(run, context)

    def Delete(self, request: Any, context: Any) -> Any:
        def run() -> Any:
            kind = self._kind(request.type)
            props, _ = kind.inputs(request.properties)
            id_, props = kind.located(request.id, props)
            with self._call(f"delete the {kind.provider.kind}", request.urn):
                kind.provider.delete(id_, props)
            return empty_pb2.Empty()

        return self._answer(run, context)

    # -- functions ----------------------------------------------------------------------------
    def Invoke(self, request: Any, context: Any) -> Any:
        def run() -> Any:
            from altostratus import lookups

            function_token = request.tok
            prefix = names.token("get")
            if not function_token.startswith(prefix):
                raise _Failure(f"the altostratus provider has no function {function_token}")
            function_name = names.snake(function_token.removeprefix(names.token("")))
            function = getattr(lookups, function_name, None)
            if function is None or function_token not in names.schema()["functions"]:
                raise _Failure(f"the altostratus provider has no function {function_token}")
            inputs = names.function_properties(function_token, "inputs")
            outputs = names.function_properties(function_token, "outputs")
            args, _ = _plain(request.args)
            given = names.from_wire(args, inputs)
            with self._call(f"look up with {function_token}", ""):
                found = function(**{k: v for k, v in given.items() if v is not None})
            result = _result_values(found)
            secret = {key for key, spec in outputs.items() if spec.get("secret")}
            wire = names.to_wire(result, outputs)
            return provider_pb2.InvokeResponse(**{"return": _struct(wire, secret)})

        return self._answer(run, context)

    # -- answering ----------------------------------------------------------------------------
    def _answer(self, run: Callable[[], Any], context: Any) -> Any:
        try:
            return run()
        except _Failure as failure:
            context.abort(grpc.StatusCode.UNKNOWN, str(failure))
        return None  # context.abort raises


def _result_values(found: Any) -> dict[str, Any]:
    """A lookup's result (a dataclass or a pydantic model) as plain values."""
    if dataclasses.is_dataclass(found) and not isinstance(found, type):
        return {field.name: getattr(found, field.name) for field in dataclasses.fields(found)}
    dumped: dict[str, Any] = found.model_dump(mode="json")
    return dumped


def _spelt(reason: str, name: str) -> str:
    """A check failure's reason naming the input as the schema spells it, and as a Python
    program does when that differs (the engine does not say which language the program is in):
    ``cidrV4 (cidr_v4 in Python) must be ...``."""
    wire = names.camel(name)
    if not reason.startswith(name):
        return reason
    spelt = wire if wire == name else f"{wire} ({name} in Python)"
    return spelt + reason[len(name) :]


def serve(engine: str | None) -> tuple[grpc.Server, int]:
    """The started server and its port."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=_config.SDK_PROVIDER_THREADS),
        options=[("grpc.max_receive_message_length", 400 * 1024 * 1024)],
    )
    provider_pb2_grpc.add_ResourceProviderServicer_to_server(Servicer(engine), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def main() -> None:
    """The plugin's entry point: serve, print the port, and wait."""
    _threads.serving_plugin()
    engine = next((arg for arg in sys.argv[1:] if not arg.startswith("-")), None)
    server, port = serve(engine)
    sys.stdout.write(f"{port}\n")
    sys.stdout.flush()
    # Ends with the engine from the start, not only once configured (get-schema configures none).
    _lifetime.end_with_engine()
    try:
        server.wait_for_termination()
    except KeyboardInterrupt:
        server.stop(0)


if __name__ == "__main__":
    main()
