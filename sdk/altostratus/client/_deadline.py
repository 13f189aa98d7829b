"""Deadlines under httpx: no socket operation of a request waits past the request's deadline.

httpx bounds each wait for bytes (its read timeout), not a request as a whole: a server that
sends one byte every few seconds keeps a request alive for as long as it likes. The connection
pools of a client are given a network backend whose streams cap the timeout of every connect,
read and write at the time left before the deadline of the request in flight on the calling
thread (`deadline_at`), and raise httpcore's own timeout once it has passed. httpx maps those to
its timeouts, so a request past its deadline fails like one that timed out.

A sync httpx request does its socket operations on the thread that sent it, so the deadline is
per thread.

This is the one module of the package that touches httpx's and httpcore's private members: a
client's transports (``Client._transport``, ``_mounts``), a transport's pool
(``HTTPTransport._pool``) and the pool's backend (``ConnectionPool._network_backend``). Checked
against httpx 0.27 to 0.28 and httpcore 1.0 (``pyproject.toml`` bounds both); a test holds
every other module of the package to their public names.
"""

from __future__ import annotations

import ssl
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import httpcore
import httpx

__all__ = ["bound_client", "bound_pool", "deadline_at", "past_deadline"]

_current = threading.local()


@contextmanager
def deadline_at(when: float) -> Iterator[None]:
    """Every socket operation of this thread ends by ``when`` (``time.monotonic()``)."""
    _current.when = when
    try:
        yield
    finally:
        _current.when = None


def past_deadline() -> bool:
    """Whether this thread has a deadline, and it has passed."""
    when: float | None = getattr(_current, "when", None)
    return when is not None and time.monotonic() >= when


def _capped(timeout: float | None, expired: type[Exception]) -> float | None:
    when: float | None = getattr(_current, "when", None)
    if when is None:
        return timeout
    left = when - time.monotonic()
    if left <= 0:
        raise expired("the request's deadline has passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _capped(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _capped(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        capped = _capped(timeout, httpcore.ConnectTimeout)
        return _Stream(self._stream.start_tls(ssl_context, server_hostname, capped))

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    def __init__(self, backend: httpcore.NetworkBackend) -> None:
        self._backend = backend

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        capped = _capped(timeout, httpcore.ConnectTimeout)
        return _Stream(self._backend.connect_tcp(host, port, capped, local_address, socket_options))

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        capped = _capped(timeout, httpcore.ConnectTimeout)
        return _Stream(self._backend.connect_unix_socket(path, capped, socket_options))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


def bound_pool(transport: object) -> bool:
    """Give an httpx transport's connection pool the deadline-bound backend; False when the
    transport has no httpcore pool (a mock transport, say). httpx exposes no setting for the
    backend, so this reaches the pool its ``HTTPTransport`` keeps (``_pool``); new connections
    take the backend from there."""
    pool = getattr(transport, "_pool", None)
    backend = getattr(pool, "_network_backend", None)
    if not isinstance(backend, httpcore.NetworkBackend):
        return False
    if not isinstance(backend, _Backend):
        pool._network_backend = _Backend(backend)  # type: ignore[union-attr]
    return True


def bound_client(client: httpx.Client) -> None:
    """``bound_pool`` for each transport of ``client``: its default one and those mounted for
    proxies from the environment."""
    for mounted in (client._transport, *client._mounts.values()):
        bound_pool(mounted)
