"""Progress lines: one line for each wait and each retry, on the resource's row under the engine.

What is reported (each once, when it starts): a record being made ready (``network 'app' is
'creating': waiting up to 300 s for it to be ready``), a delete waiting out "in use" or waiting
for the record to be gone, a call retried after a 429, a 5xx or a lost connection (the client's
``retrying ...`` log record), and a create whose answer was lost being looked up.

Where it goes: Pulumi starts a provider plugin with the address of the engine's host service as
its first argument, and ``python -m pulumi.dynamic`` keeps it in ``sys.argv`` without using it
(``pulumi.log`` there has no engine and prints to the process's standard error, which the engine
shows on the stack's row, after the fact). ``say`` sends the engine's ``Log`` call to that address
itself, as providers written in Go do (``host.Log``): severity info, ephemeral (shown on the
resource's progress row while it runs, not kept among the diagnostics), with the URN of the call
being served. The dynamic ``ResourceProvider`` interface passes no URN, so it is read from the
SDK's servicer method running the call on this thread (its ``request``); when it cannot be found
the line goes to the stack's row and still names the resource. The runner
(``altostratus.testing``, ``altostratus run``) serves the same ``Log`` call and prints the same
lines. Outside a provider process (a provider called directly) the line is logged at info level
on the ``altostratus.providers`` logger. A line that cannot be sent is dropped: progress never
fails an operation.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import sys
import threading
from collections.abc import Iterator
from typing import Any

from altostratus.providers import _threads

_log = logging.getLogger("altostratus.providers")
_subject: contextvars.ContextVar[str | None] = contextvars.ContextVar("subject", default=None)
_lock = threading.Lock()
_engine: Any = None
_engine_tried = False
_SEND_SECONDS = 2.0
_REQUEST_KINDS = ("CheckRequest", "DiffRequest", "CreateRequest", "ReadRequest", "UpdateRequest")


@contextlib.contextmanager
def about(subject: str) -> Iterator[None]:
    """Name the resource (``network 'app'``) of the lines said on this thread meanwhile."""
    token = _subject.set(subject)
    try:
        yield
    finally:
        _subject.reset(token)


def say(text: str) -> None:
    """Report one line of progress about the resource of the current call (see the module)."""
    subject = _subject.get()
    line = f"{subject}: {text}" if subject else text
    if not _threads.in_provider_process():
        _log.info("%s", line)
        return
    engine = _engine_stub()
    if engine is None:
        _log.info("%s", line)
        return
    from pulumi.runtime.proto import engine_pb2

    request = engine_pb2.LogRequest(
        severity=engine_pb2.INFO, message=line, urn=_current_urn(), ephemeral=True
    )
    try:
        engine.Log(request, timeout=_SEND_SECONDS)
    except Exception as error:  # progress never fails an operation
        _log.debug("a progress line was not sent (%s): %s", error, line)


def _engine_stub() -> Any:
    """The engine's host service, at the address the engine passed the provider process."""
    global _engine, _engine_tried
    with _lock:
        if not _engine_tried:
            _engine_tried = True
            address = sys.argv[1] if len(sys.argv) > 1 else ""
            if address and not address.startswith("-"):
                import grpc
                from pulumi.runtime.proto import engine_pb2_grpc

                _engine = engine_pb2_grpc.EngineStub(grpc.insecure_channel(address))
        return _engine


def _current_urn() -> str:
    """The URN of the provider call this thread serves: the ``request`` of the SDK's servicer
    method (``Create``, ``Update``, ``Delete``, ... in ``pulumi/dynamic/__main__.py``)."""
    frame = sys._getframe(1)
    while frame is not None:
        request = frame.f_locals.get("request") if frame.f_code.co_name[:1].isupper() else None
        if request is not None and type(request).__name__ in (*_REQUEST_KINDS, "DeleteRequest"):
            return str(getattr(request, "urn", "") or "")
        frame = frame.f_back  # type: ignore[assignment]
    return ""
