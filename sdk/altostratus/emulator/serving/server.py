"""Serving the emulator's WSGI applications with cheroot, on background threads.

Cheroot (CherryPy's server) is pure Python, keeps HTTP/1.1 connections alive, parks idle
keep-alive connections in a selector rather than in a thread, and runs requests on a bounded
pool of worker threads; ``peers`` keeps slow and silent peers from holding those threads. It
was chosen over waitress because waitress drops every request header whose name holds an
underscore, and S3 metadata names may hold them (and are signed); and because its ``stop()``
ends a server from any thread at once.

Underscored header names are kept only for S3 metadata (``x-amz-meta-*``, as moto's own server
does) and never stand in for a dashed header of the same WSGI name: elsewhere ``X_Foo`` and
``X-Foo`` would be indistinguishable in the WSGI environ, and one could spoof the other.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import socket
import threading
import time
from collections.abc import Iterable
from typing import Any

from cheroot import server as cheroot_server
from cheroot import wsgi

from altostratus.emulator.serving import cheroot_internals, peers

logger = logging.getLogger("altostratus.emulator.http")

#: The environ key holding the connection's socket, for the drop-connection fault.
CONNECTION_SOCKET = "altostratus.socket"
#: moto's environ key for header names whose underscores it must keep.
PRESERVED_HEADER_NAMES = "moto.preserved_header_names"

#: Idle keep-alive connections kept open at once; more are closed after their answer.
KEEP_ALIVE_CONNECTIONS = 128
#: Seconds between the server's checks for expired idle connections, and so the longest its
#: ``stop()`` waits for the serving loop to notice (cheroot's default is 0.5).
EXPIRATION_INTERVAL = 0.05
#: The largest request body either port accepts (S3 allows 5 GiB in one PUT; the API far less,
#: which the application checks itself and answers in its own error format).
MAX_BODY_BYTES = 5 * 1024**3


def _is_s3_metadata(name: bytes) -> bool:
    return name.lower().startswith(b"x-amz-meta-")


def _wsgi_key(name: bytes) -> str:
    key = name.decode("latin-1").upper().replace("-", "_")
    return key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{key}"


class _HeaderReader(cheroot_server.HeaderReader):
    """Cheroot's reader, dropping headers with underscores in their names but S3 metadata."""

    def _allow_header(self, key_name: bytes) -> bool:
        return b"_" not in key_name or _is_s3_metadata(key_name)


class _Request(peers.Request):
    header_reader = _HeaderReader()


class _Connection(peers.Connection):
    RequestHandlerClass = _Request


#: The most of an answer handed to the socket at once. Cheroot's writer copies what is left of a
#: write after each partial send, so one large write (a 64 MiB object) costs time in the square
#: of its size; slices keep the cost linear.
WRITE_SLICE = 256 * 1024


class _Gateway(wsgi.Gateway_10):
    """Cheroot's WSGI 1.0 gateway, adding the connection's socket and the S3 metadata names,
    and writing large answers in slices."""

    def write(self, chunk: bytes) -> None:
        for start in range(0, max(len(chunk), 1), WRITE_SLICE):
            super().write(chunk[start : start + WRITE_SLICE])

    def start_response(self, status: str, headers: Any, exc_info: Any = None) -> Any:
        """An answer saying ``Connection: close`` closes the connection unread (see ``peers``)."""
        write = super().start_response(status, headers, exc_info)
        if any(
            name.lower() == "connection" and value.strip().lower() == "close"
            for name, value in headers
        ):
            self.req.close_connection = True
        return write

    def get_environ(self) -> dict[str, Any]:  # type: ignore[override]
        environ: dict[str, Any] = super().get_environ()  # type: ignore[no-untyped-call]
        headers: dict[bytes, bytes] = self.req.inheaders
        dashed = {_wsgi_key(name): value for name, value in headers.items() if b"_" not in name}
        preserved: dict[str, str] = {}
        for name in headers:
            if b"_" not in name:
                continue
            key = _wsgi_key(name)
            if key in dashed:  # never let an underscored header stand in for a dashed one
                environ[key] = dashed[key].decode("latin-1")
            else:
                preserved[key] = name.decode("latin-1").lower()
        environ[PRESERVED_HEADER_NAMES] = preserved
        environ[CONNECTION_SOCKET] = self.req.conn.socket
        environ[peers.LIMIT_BODY] = self.req.conn.limit_body
        return environ


class _Server(wsgi.Server):
    ConnectionClass = _Connection

    def process_conn(self, conn: _Connection) -> None:
        peers.gate(self, conn, super().process_conn)

    def stop(self) -> None:
        """Cheroot's stop, without sitting out the serving loop's idle wait.

        Cheroot's ``stop`` asks the loop to end, waits until it does, and only then connects to
        the listening socket to wake it: the wait lasts until the loop's ``select`` times out
        (``EXPIRATION_INTERVAL``), for each server. Here the loop is asked first and woken at
        once by that connection, and its end is awaited more finely than cheroot's 10 ms
        steps, so a stop takes a millisecond or two.
        """
        listening = getattr(self, "socket", None)
        if self.ready and listening is not None and cheroot_internals.ask_to_stop(self):
            _wake(listening)
            deadline = time.monotonic() + 1.0
            while cheroot_internals.serving(self) and time.monotonic() < deadline:
                time.sleep(0.0005)
        super().stop()


def _wake(listening: socket.socket) -> None:
    """Connect to a listening socket and leave (a wildcard address is reached on loopback)."""
    host, port = listening.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "::1" if listening.family == socket.AF_INET6 else "127.0.0.1"
    try:
        with socket.create_connection((host, port), timeout=1.0):
            pass
    except OSError:
        pass  # cheroot's own stop touches it again, and its loop ends on its next timeout


class ListenError(OSError):
    """The server could not listen on ``host:port``: the port is taken or not allowed, or the
    host is unknown or not this machine's. ``str()`` is one line."""

    def __init__(self, name: str, host: str, port: int, code: int | None) -> None:
        reason = "unknown host" if code is None else os.strerror(code).lower()
        super().__init__(f"cannot listen on {host}:{port} for {name}: {reason}")
        self.name, self.host, self.port, self.code = name, host, port, code

    @property
    def bad_host(self) -> bool:
        """Whether the host, not the port, is at fault."""
        return self.code in (None, errno.EADDRNOTAVAIL)


def _code(error: OSError) -> int:
    """The last system error in cheroot's summary of its attempts to bind."""
    if error.errno is None:
        numbers = re.findall(r"\[Errno (\d+)\]", str(error))
        if numbers:
            return int(numbers[-1])
    return error.errno or errno.EADDRNOTAVAIL


class BackgroundServer:
    """A cheroot server for ``app`` on ``host:port`` (port 0 picks a free one), bound on creation
    (so a busy port or an unknown host raises ``ListenError`` at once) and served on a thread.
    ``name`` ("API", "S3") names it in errors and in its thread's name."""

    def __init__(self, host: str, port: int, app: Any, name: str) -> None:
        try:
            socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
        except (socket.gaierror, UnicodeError):
            raise ListenError(name, host, port, None) from None
        self._server = _Server(
            (host, port),
            _logged(app),
            server_name=host,
            request_queue_size=64,
            timeout=peers.IDLE_TIMEOUT,
            shutdown_timeout=5,
        )
        self._server.requests = peers.Pool(
            self._server, min=peers.MIN_THREADS, max=peers.MAX_THREADS
        )
        self._server.gateway = _Gateway
        self._server.keep_alive_conn_limit = KEEP_ALIVE_CONNECTIONS
        self._server.expiration_interval = EXPIRATION_INTERVAL
        self._server.max_request_body_size = MAX_BODY_BYTES
        self._server.max_request_header_size = peers.MAX_HEADER_BYTES
        try:
            self._server.prepare()
        except OSError as error:
            raise ListenError(name, host, port, _code(error)) from None
        self._thread = threading.Thread(
            target=self._serve, name=f"altostratus-{name.lower()}", daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.bind_addr[1])

    def url(self, host: str) -> str:
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.port}"

    def start(self) -> None:
        self._thread.start()

    def _serve(self) -> None:
        try:
            self._server.serve()
        except Exception:
            logger.exception("the emulator's server stopped on an error")

    def stop(self) -> None:
        """Stop accepting, close idle connections, and wait (up to five seconds) for the
        requests in progress."""
        self._server.stop()
        if self._thread.is_alive():
            self._thread.join(timeout=5)


def _logged(app: Any) -> Any:
    """``app``, logging each request line to ``altostratus.emulator.http`` at debug level."""

    def logged(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        def logging_start_response(status: str, headers: Any, exc_info: Any = None) -> Any:
            logger.debug(
                "%s:%s %s %s %s",
                environ.get("REMOTE_ADDR"),
                environ.get("REMOTE_PORT"),
                environ.get("REQUEST_METHOD"),
                environ.get("PATH_INFO"),
                status.split(" ", 1)[0],
            )
            return start_response(status, headers, exc_info)

        result: Iterable[bytes] = app(environ, logging_start_response)
        return result

    return logged
