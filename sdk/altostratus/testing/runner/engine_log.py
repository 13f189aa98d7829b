"""The engine's ``Log`` call, served to the runner's provider processes: their progress lines.

The engine passes a provider plugin the address of its host service as the first argument; the
providers send their progress lines there (``providers/_progress.py``), with the URN of the call
they serve, and the engine shows each on that resource's progress row. The runner does the same:
``serve`` listens at ``launch.ENGINE_ADDRESS`` (a Unix socket of this process, removed at exit),
and each line goes to every running operation (``listen``) that has a step in flight for the URN,
which reports it as a ``StepEvent`` of status ``progress`` with the line as its ``message``.
Where the socket cannot be served, the operations run as before, without the lines.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

import grpc
from google.protobuf import empty_pb2
from pulumi.runtime.proto import engine_pb2_grpc

from altostratus.testing.runner import launch


class Listener(Protocol):
    def progress(self, urn: str, message: str) -> None: ...


_log = logging.getLogger("altostratus.testing")
_lock = threading.Lock()
_server: grpc.Server | None = None
_listeners: weakref.WeakSet[Any] = weakref.WeakSet()


class _Engine(engine_pb2_grpc.EngineServicer):
    def Log(self, request: Any, context: Any) -> empty_pb2.Empty:
        with _lock:
            listeners = list(_listeners)
        for listener in listeners:
            listener.progress(str(request.urn), str(request.message))
        return empty_pb2.Empty()


def listen(listener: Listener) -> None:
    """Pass ``listener`` every line until it is garbage (the operation's ``Steps``)."""
    serve()
    with _lock:
        _listeners.add(listener)


def serve() -> None:
    """Listen at ``launch.ENGINE_ADDRESS``, once per process."""
    global _server
    with _lock:
        if _server is not None:
            return
        path = launch.ENGINE_ADDRESS.removeprefix("unix:")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        server = grpc.server(ThreadPoolExecutor(max_workers=2, thread_name_prefix="engine-log"))
        engine_pb2_grpc.add_EngineServicer_to_server(_Engine(), server)
        try:
            server.add_insecure_port(launch.ENGINE_ADDRESS)
            server.start()
        except RuntimeError as error:  # no Unix sockets here: the steps run without the lines
            _log.debug("the progress lines are not served at %s: %s", path, error)
            server.stop(0)
        _server = server
        atexit.register(_stop, server, path)


def _stop(server: grpc.Server, path: str) -> None:
    server.stop(0)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
