"""The dynamic provider process and the engine's gRPC calls to it.

The engine starts ``python -m pulumi.dynamic`` for a dynamic provider, reads the port it prints,
calls ``Configure`` once with the provider's inputs (for dynamic providers, the whole stack
configuration: ``GetPackageConfig`` in ``pkg/resource/deploy/target.go``), then ``Check``,
``Diff``, ``Create``, ``Read``, ``Update`` and ``Delete``
(``pkg/resource/plugin/provider_plugin.go``).
The process does not accept secrets (its ``Configure`` answers ``acceptSecrets: False``), so every
property sent here is plain; the caller strips and restores secret marks
(``_properties.reveal`` and ``annotate_secrets``).

The process deserializes and configures each provider once (``get_provider`` in
``pulumi/dynamic/__main__.py`` caches it), so one process serves one configuration: a changed
configuration needs another process, as the engine loads another plugin for it.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, ClassVar

import grpc
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

from altostratus.testing._properties import Properties, from_struct, reveal, to_struct
from altostratus.testing._results import urn_name, urn_type
from altostratus.testing.runner import engine_log, launch

PROVIDER_KEY = "__provider"
_ENDING = 10.0
"""Seconds to wait for a provider process whose output closed before a port to end."""


class ProviderProcessError(RuntimeError):
    """The provider process could not be reached: it ended before it served, or was closed."""


@dataclass(frozen=True)
class CheckFailure:
    """A property the provider refused, and why."""

    property: str
    reason: str


class CheckFailed(Exception):
    """``Check`` answered failures: the engine stops the resource there."""

    def __init__(self, failures: list[tuple[str, str]]) -> None:
        super().__init__(f"check failed: {failures}")
        self.failures = failures


@dataclass
class DiffAnswer:
    """The provider's ``Diff`` answer, as the step generator reads it."""

    changes: int
    replaces: list[str] = field(default_factory=list)
    delete_before_replace: bool = False
    changed_keys: list[str] = field(default_factory=list)

    DIFF_UNKNOWN: ClassVar[int] = provider_pb2.DiffResponse.DIFF_UNKNOWN
    DIFF_NONE: ClassVar[int] = provider_pb2.DiffResponse.DIFF_NONE
    DIFF_SOME: ClassVar[int] = provider_pb2.DiffResponse.DIFF_SOME

    @property
    def some(self) -> bool:
        return self.changes == provider_pb2.DiffResponse.DIFF_SOME

    # The names of the protobuf answer, for callers that read it that way.
    @property
    def deleteBeforeReplace(self) -> bool:
        return self.delete_before_replace


class ProviderProcess:
    """A running ``python -m pulumi.dynamic`` configured with one stack configuration.

    ``command`` runs that module after importing the library's providers and client
    (``provider_main``), so that the first resource does not wait for those imports."""

    command: tuple[str, ...] = launch.COMMAND

    def __init__(
        self,
        config: Mapping[str, Any],
        *,
        stderr: Path | None = None,
        started: subprocess.Popen[bytes] | None = None,
    ) -> None:
        """``started``: a process of ``launch()`` to configure, instead of starting one.

        The process is connected to and configured on its first call (``stub``), not here: the
        program runs while the process is still starting, and the first resource's ``Check``
        waits for it only if it is not ready by then."""
        self._stderr: IO[bytes] | None = None
        engine_log.serve()  # the process logs its progress lines there (see _launch)
        if started is None:
            self._stderr = stderr.open("wb") if stderr is not None else None
            started = self.launch(self._stderr, self.command)
        self.process = started
        self.config = dict(config)
        self._closed = threading.Event()
        self._connecting = threading.Lock()
        self._channel: grpc.Channel | None = None
        self._stub: provider_pb2_grpc.ResourceProviderStub | None = None

    @classmethod
    def launch(
        cls, stderr: IO[bytes] | None = None, command: tuple[str, ...] | None = None
    ) -> subprocess.Popen[bytes]:
        """The provider's process (``command``, by default the class's), started and not yet
        waited for: its interpreter and imports run while the caller goes on."""
        return launch.launch(stderr, command or cls.command)

    @property
    def stub(self) -> provider_pb2_grpc.ResourceProviderStub:
        """The process's gRPC stub, once it serves and has taken ``Configure`` (the engine's
        first call to a provider)."""
        stub = self._stub
        return stub if stub is not None else self._connect()

    def _connect(self) -> provider_pb2_grpc.ResourceProviderStub:
        with self._connecting:
            if self._stub is not None:
                return self._stub
            if self._closed.is_set():
                raise ProviderProcessError("the provider process was closed")
            assert self.process.stdout is not None
            announced = self.process.stdout.readline().strip()
            if not announced.isdigit():
                raise ProviderProcessError(self._unserved(announced))
            self._channel = grpc.insecure_channel(f"127.0.0.1:{int(announced)}")
            stub = provider_pb2_grpc.ResourceProviderStub(self._channel)
            args = to_struct(reveal(dict(self.config)))
            stub.Configure(provider_pb2.ConfigureRequest(args=args, acceptSecrets=False))
            self._stub = stub
            return stub

    def _unserved(self, announced: bytes) -> str:
        """Why the process gave no port: it ended (its output closed as it exits, so it is
        waited for, briefly, to tell its exit status), or it printed something else first."""
        if self._closed.is_set():
            return "the provider process was closed before it served"
        if not announced:
            try:
                status = self.process.wait(timeout=_ENDING)
            except subprocess.TimeoutExpired:
                return "the provider process closed its output before it served"
            return f"the provider process ended before it served (exit status {status})"
        shown = announced[:80].decode(errors="replace")
        return f"the provider process announced no port before it served (it printed {shown!r})"

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        launch.stop(self.process)  # first: a connection waiting for the port ends now
        with self._connecting:
            if self._channel is not None:
                self._channel.close()
        if self._stderr is not None:
            self._stderr.close()

    def check_result(
        self, urn: str, olds: Properties, news: Properties
    ) -> tuple[Properties, list[CheckFailure]]:
        # Each call names the resource's type, as the engine's do: the plugin serves it by type.
        answer = self.stub.Check(
            provider_pb2.CheckRequest(
                urn=urn,
                olds=to_struct(olds),
                news=to_struct(news),
                name=urn_name(urn),
                type=urn_type(urn),
            )
        )
        failures = [CheckFailure(f.property, f.reason) for f in answer.failures]
        return from_struct(answer.inputs), failures

    def check(self, urn: str, olds: Properties, news: Properties) -> Properties:
        inputs, failures = self.check_result(urn, olds, news)
        if failures:
            raise CheckFailed([(f.property, f.reason) for f in failures])
        return inputs

    def check_failures(self, urn: str, news: Properties) -> list[tuple[str, str]]:
        _, failures = self.check_result(urn, {}, news)
        return [(f.property, f.reason) for f in failures]

    def diff(
        self,
        urn: str,
        id_: str,
        olds: Properties,
        news: Properties,
        old_inputs: Properties | None = None,
    ) -> DiffAnswer:
        """``Diff``: ``olds`` are the old outputs, ``news`` the checked new inputs."""
        request = provider_pb2.DiffRequest(
            id=id_,
            urn=urn,
            olds=to_struct(olds),
            news=to_struct(news),
            old_inputs=to_struct(old_inputs or {}),
            name=urn_name(urn),
            type=urn_type(urn),
        )
        answer = self.stub.Diff(request)
        return DiffAnswer(
            changes=answer.changes,
            replaces=list(answer.replaces),
            delete_before_replace=answer.deleteBeforeReplace,
            changed_keys=list(answer.diffs),
        )

    def create(self, urn: str, props: Properties) -> tuple[str, Properties]:
        answer = self.stub.Create(
            provider_pb2.CreateRequest(
                urn=urn, properties=to_struct(props), name=urn_name(urn), type=urn_type(urn)
            )
        )
        return str(answer.id), from_struct(answer.properties, keep_nulls=True)

    def read(
        self, urn: str, id_: str, outputs: Properties, inputs: Properties
    ) -> tuple[str, Properties, Properties | None]:
        """``Read``: the id ("" when gone), the live outputs, and the inputs if it sent any."""
        request = provider_pb2.ReadRequest(
            id=id_,
            urn=urn,
            properties=to_struct(outputs),
            inputs=to_struct(inputs),
            name=urn_name(urn),
            type=urn_type(urn),
        )
        answer = self.stub.Read(request)
        inputs_sent = answer.HasField("inputs")
        live_inputs = from_struct(answer.inputs) if inputs_sent else None
        return str(answer.id), from_struct(answer.properties, keep_nulls=True), live_inputs

    def update(self, urn: str, id_: str, olds: Properties, news: Properties) -> Properties:
        request = provider_pb2.UpdateRequest(
            id=id_,
            urn=urn,
            olds=to_struct(olds),
            news=to_struct(news),
            name=urn_name(urn),
            type=urn_type(urn),
        )
        return from_struct(self.stub.Update(request).properties, keep_nulls=True)

    def delete(self, urn: str, id_: str, outputs: Properties) -> None:
        request = provider_pb2.DeleteRequest(
            id=id_, urn=urn, properties=to_struct(outputs), name=urn_name(urn), type=urn_type(urn)
        )
        self.stub.Delete(request)

    def invoke(self, token: str, args: Properties) -> Properties:
        """``Invoke`` of the function ``token``; its answer (a refused call raises
        ``CheckFailed``)."""
        answer = self.stub.Invoke(provider_pb2.InvokeRequest(tok=token, args=to_struct(args)))
        if answer.failures:
            raise CheckFailed([(f.property, f.reason) for f in answer.failures])
        return from_struct(getattr(answer, "return"))


class PluginProcess(ProviderProcess):
    """A running provider plugin (``pulumi-resource-altostratus``, the module
    ``altostratus.plugin``) configured as one provider instance: ``config`` holds that
    provider's inputs (``apiUrl``, ``apiKey``, ...), as the engine's ``Configure`` sends them."""

    command: tuple[str, ...] = (sys.executable, "-m", "altostratus.plugin")

    def diff_config(self, urn: str, olds: Properties, news: Properties) -> list[str]:
        """``DiffConfig`` of a provider resource's settings: those whose change replaces it."""
        request = provider_pb2.DiffRequest(
            urn=urn,
            olds=to_struct(reveal(olds)),
            news=to_struct(reveal(news)),
            old_inputs=to_struct(reveal(olds)),
            name=urn_name(urn),
            type=urn_type(urn),
        )
        return list(self.stub.DiffConfig(request).replaces)


def call_failure(error: BaseException) -> str:
    """The one line a failed provider call reports (the gRPC error's details)."""
    if isinstance(error, grpc.RpcError):
        details = error.details() if hasattr(error, "details") else None
        return str(details or error)
    return str(error)
