"""The floor of any Python provider plugin under the engine: a gRPC ``ResourceProvider`` that
answers every call at once without doing anything (``benchmarks.engine_ops``).

It costs what every Python plugin costs: an interpreter, grpc and protobuf, the provider
protocol's messages and the engine's calls; nothing of the Pulumi SDK (its generated protocol
modules are loaded from their folder without the ``pulumi`` package's own import) and nothing of
altostratus. ``create`` gives a new id and echoes the inputs; ``read`` gives back the state it
is sent; ``diff`` names the inputs that changed. Run as ``python floor_plugin.py``, as the
engine starts a plugin: it prints its port, then serves until the engine stops it.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import uuid
from concurrent import futures
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
from google.protobuf import empty_pb2


def _protocol() -> tuple[Any, Any, Any]:
    """The SDK's generated ``plugin_pb2``, ``provider_pb2`` and ``provider_pb2_grpc``, loaded as
    a package of their own so that ``import pulumi`` (the whole SDK) does not run."""
    found = importlib.util.find_spec("pulumi")
    assert found is not None and found.submodule_search_locations is not None
    folder = Path(next(iter(found.submodule_search_locations))) / "runtime" / "proto"
    package = ModuleType("floor_protocol")
    package.__path__ = [str(folder)]
    sys.modules[package.__name__] = package
    return tuple(  # type: ignore[return-value]
        importlib.import_module(f"floor_protocol.{name}")
        for name in ("plugin_pb2", "provider_pb2", "provider_pb2_grpc")
    )


plugin_pb2, provider_pb2, provider_grpc = _protocol()
_Servicer: Any = provider_grpc.ResourceProviderServicer


class Floor(_Servicer):  # type: ignore[misc]
    def Handshake(self, request: Any, context: Any) -> Any:
        return provider_pb2.ProviderHandshakeResponse(
            accept_secrets=True, accept_resources=True, accept_outputs=True
        )

    def GetPluginInfo(self, request: Any, context: Any) -> Any:
        return plugin_pb2.PluginInfo(version="0.0.1")

    def GetSchema(self, request: Any, context: Any) -> Any:
        return provider_pb2.GetSchemaResponse(schema="{}")

    def CheckConfig(self, request: Any, context: Any) -> Any:
        return provider_pb2.CheckResponse(inputs=request.news)

    def DiffConfig(self, request: Any, context: Any) -> Any:
        return provider_pb2.DiffResponse(changes=provider_pb2.DiffResponse.DIFF_NONE)

    def Configure(self, request: Any, context: Any) -> Any:
        return provider_pb2.ConfigureResponse(
            acceptSecrets=True, supportsPreview=True, acceptResources=True, acceptOutputs=True
        )

    def Check(self, request: Any, context: Any) -> Any:
        return provider_pb2.CheckResponse(inputs=request.news)

    def Diff(self, request: Any, context: Any) -> Any:
        olds = dict(request.old_inputs if request.HasField("old_inputs") else request.olds)
        news = dict(request.news)
        changed = sorted(key for key in olds.keys() | news.keys() if olds.get(key) != news.get(key))
        kind = (
            provider_pb2.DiffResponse.DIFF_SOME if changed else provider_pb2.DiffResponse.DIFF_NONE
        )
        return provider_pb2.DiffResponse(changes=kind, diffs=changed)

    def Create(self, request: Any, context: Any) -> Any:
        return provider_pb2.CreateResponse(id=uuid.uuid4().hex, properties=request.properties)

    def Read(self, request: Any, context: Any) -> Any:
        return provider_pb2.ReadResponse(
            id=request.id, properties=request.properties, inputs=request.inputs
        )

    def Update(self, request: Any, context: Any) -> Any:
        return provider_pb2.UpdateResponse(properties=request.news)

    def Delete(self, request: Any, context: Any) -> Any:
        return empty_pb2.Empty()

    def Cancel(self, request: Any, context: Any) -> Any:
        return empty_pb2.Empty()


def main() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    provider_grpc.add_ResourceProviderServicer_to_server(Floor(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    server.wait_for_termination()


if __name__ == "__main__":
    main()
