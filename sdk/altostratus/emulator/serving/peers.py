"""How the server keeps answering while peers are slow, silent or hostile.

Cheroot hands a connection to a worker thread as soon as it can be read, and the worker then
waits on each read up to the idle timeout: a handful of peers that connect and stay silent, send
their headers a byte at a time, or trickle a body would hold every worker. So:

- a connection reaches a worker only once its whole header block has arrived: until then it
  waits in the selector, costing no thread, and it is closed when the block is not complete
  ``HEADER_SECONDS`` after its first byte (a silent one, after ``IDLE_TIMEOUT``);
- a body must keep arriving: after ``BODY_GRACE_SECONDS`` its bytes must average at least
  ``MIN_BODY_RATE`` a second, or the read fails and the connection is closed;
- a refused request's body is drained for at most ``DRAIN_SECONDS`` (``drain``), then its
  connection is closed: refusing a peer that has no key costs a thread that long at most;
- an answer carrying ``Connection: close`` closes the connection without reading the rest of
  the body (cheroot would otherwise read it all first);
- the pool of workers starts at ``MIN_THREADS`` and grows, one thread whenever every worker is
  busy, up to ``MAX_THREADS``; past that, requests wait their turn in a queue (unbounded, so
  the selector never blocks on it).

The seams used here (the pool's thread list and queue, the connection manager's selector, the
reader's socket) are cheroot's internals, not its public interface; the server's tests
(``test_hostile_peers``) exercise each of them.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable
from typing import Any

from cheroot import makefile
from cheroot import server as cheroot_server
from cheroot.workers import threadpool

from altostratus.emulator.serving import cheroot_internals

#: Worker threads of each port: the pool starts with the first figure and grows to the second.
MIN_THREADS = 8
MAX_THREADS = 128
#: Seconds an idle keep-alive connection, or one that never sends a byte, is kept open.
IDLE_TIMEOUT = 30
#: Seconds from a request's first byte to the end of its headers.
HEADER_SECONDS = 10
#: A body's allowance before its rate counts, and the rate it must keep, in bytes a second.
BODY_GRACE_SECONDS = 10
MIN_BODY_RATE = 16 * 1024
#: The largest request line plus headers.
MAX_HEADER_BYTES = 64 * 1024
#: Environ key of a callable ``(seconds) -> None``: no more of the body is read after that long.
LIMIT_BODY = "altostratus.limit_body_seconds"
#: Seconds a refused request's body is drained for, before its connection is closed instead.
DRAIN_SECONDS = 2


class _TimedSocketIO(socket.SocketIO):
    """A socket's reads, each bounded by what the connection's deadlines leave."""

    def __init__(self, sock: socket.socket, connection: Connection) -> None:
        super().__init__(sock, "rb")
        self._socket = sock
        self._connection = connection

    def readinto(self, buffer: Any) -> int | None:
        left = self._connection.seconds_left()
        if left is not None:
            if left <= 0:
                raise TimeoutError("the request's body came too slowly")
            self._socket.settimeout(min(left, IDLE_TIMEOUT))
        count = super().readinto(buffer)
        self._connection.received += count or 0
        return count


class _Reader(makefile.StreamReader):
    def __init__(self, sock: socket.socket, connection: Connection, size: int) -> None:
        # StreamReader makes its own socket reader; this one is bounded by the deadlines.
        super(makefile.StreamReader, self).__init__(_TimedSocketIO(sock, connection), size)
        self.bytes_read = 0


class Connection(cheroot_server.HTTPConnection):
    """A connection with a header gate and body deadlines (see the module's rules)."""

    rbufsize = MAX_HEADER_BYTES + 4096

    def __init__(self, server: Any, sock: socket.socket, make: Any = makefile.MakeFile) -> None:
        super().__init__(server, sock, make)
        if isinstance(self.rfile, makefile.StreamReader):  # not a TLS connection's reader
            self.rfile = _Reader(sock, self, self.rbufsize)
        self.seen = False
        self.header_started: float | None = None
        self.body_started: float | None = None
        self.cutoff: float | None = None
        self.received = 0

    def start_body(self) -> None:
        self.body_started, self.received, self.cutoff = time.monotonic(), 0, None

    def limit_body(self, seconds: float) -> None:
        cutoff = time.monotonic() + seconds
        self.cutoff = cutoff if self.cutoff is None else min(self.cutoff, cutoff)

    def seconds_left(self) -> float | None:
        if self.body_started is None:
            return None
        now = time.monotonic()
        left = BODY_GRACE_SECONDS + self.received / MIN_BODY_RATE - (now - self.body_started)
        return left if self.cutoff is None else min(left, self.cutoff - now)

    def communicate(self) -> bool:
        try:
            return bool(super().communicate())  # type: ignore[no-untyped-call]
        finally:
            self.body_started = self.cutoff = None
            with contextlib.suppress(OSError):  # a read may have shortened it
                self.socket.settimeout(IDLE_TIMEOUT)

    def headers_state(self, readable: bool) -> bool | None:
        """True when a whole header block is buffered, False while it is still on its way,
        None when the peer closed or failed. Reads the socket only when it is ``readable``."""
        buffered = bytes(self.rfile.peek(0)) if self.rfile.has_data() else b""
        if readable and len(buffered) < self.rfile.buffer_size:
            try:
                more = bytes(self.rfile.peek(self.rfile.buffer_size))
            except OSError:
                return None
            if len(more) <= len(buffered):
                return None  # readable, yet nothing came: the peer is gone
            buffered = more
        head = buffered.lstrip(b"\r\n")
        full = len(buffered) >= self.rfile.buffer_size  # cheroot answers 413 for it
        return full or b"\r\n\r\n" in head or b"\n\n" in head


class Request(cheroot_server.HTTPRequest):
    def parse_request(self) -> None:
        super().parse_request()
        self.conn.start_body()


class Pool(threadpool.ThreadPool):
    """Cheroot's pool, growing one thread whenever a request would otherwise wait (without
    cheroot's ``grow``, which sleeps a tenth of a second for each thread it starts)."""

    def put(self, obj: Any) -> None:
        cheroot_internals.grow(self)
        super().put(obj)


def gate(server: Any, connection: Connection, put: Callable[[Connection], None]) -> None:
    """Hand ``connection`` to ``put`` (a worker) once its headers are in; until then keep it in
    the selector, and close it when its header time is over."""
    now = time.monotonic()
    # A new connection is not read (it may have sent nothing yet); after that, the selector
    # offers it only when it can be read.
    state = connection.headers_state(readable=connection.seen)
    connection.seen = True
    if state is None:
        connection.close()
        return
    if state:
        connection.header_started = None
        put(connection)
        return
    if connection.rfile.has_data() and connection.header_started is None:
        connection.header_started = now
    started = connection.header_started
    if started is not None and now - started > HEADER_SECONDS:
        connection.close()
        return
    # The connection manager closes a connection idle past the server's timeout: one whose
    # headers started is made to look idle since just before its header time ends.
    connection.last_used = time.time()
    if started is not None:
        connection.last_used -= now - started + IDLE_TIMEOUT - HEADER_SECONDS
    cheroot_internals.watch(server, connection)


def drain(environ: dict[str, Any], stream: Any, length: int | None, most: int) -> bool:
    """Read and drop what is left of a refused request's body: at most ``most`` bytes, for at
    most ``DRAIN_SECONDS`` (what a client sending at once needs). True when it was all read, so
    the connection may serve another request; otherwise answer with ``Connection: close``."""
    if length is None or length > most:
        return False
    limit = environ.get(LIMIT_BODY)
    if limit is not None:
        limit(DRAIN_SECONDS)
    try:
        while length > 0:
            chunk = stream.read(min(length, 1 << 20))
            if not chunk:
                return False
            length -= len(chunk)
    except Exception:  # the peer's bytes, or its slowness
        return False
    return True
