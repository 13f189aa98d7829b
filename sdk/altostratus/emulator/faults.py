"""Test controls around service requests: injected faults, the request log, the rate limiter."""

from __future__ import annotations

import json
import math
import sys
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any

from altostratus.emulator.clock import Clock
from altostratus.emulator.state.base import new_id

#: How a ``mangle`` fault replaces a request's answer, after the request was served as usual
#: (its change made): the status stays, the body becomes what a broken proxy might send.
MANGLES = ("invalid_json", "html", "empty", "wrong_shape", "wrong_id")

_HTML = b"<html><head><title>Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"


def mangled_body(how: str, body: bytes) -> tuple[bytes, str]:
    """The body and content type that replace an answer's ``body``: its first half
    (``invalid_json``), an HTML page, nothing, the answer wrapped in an object of its own
    (``wrong_shape``), or an object with an id of no record (``wrong_id``)."""
    if how == "invalid_json":
        return body[: len(body) // 2], "application/json"
    if how == "html":
        return _HTML, "text/html; charset=utf-8"
    if how == "empty":
        return b"", "application/json"
    if how == "wrong_shape":
        return b'{"result": "success", "data": ' + body + b"}", "application/json"
    assert how == "wrong_id", how
    return json.dumps({"id": new_id(), "result": "success"}).encode(), "application/json"


@dataclass
class Fault:
    """The next ``count`` service requests matching ``method`` and ``path_prefix`` (None: any)
    wait ``delay_seconds`` (real seconds), then answer ``status`` or lose their connection;
    with ``after_apply`` the change is made first. With ``mangle`` (one of ``MANGLES``) the
    request is served, then its answer's body replaced (see ``mangled_body``)."""

    id: str
    method: str | None = None
    path_prefix: str | None = None
    count: int = 1
    status: int | None = None
    delay_seconds: float | None = None
    drop_connection: bool = False
    after_apply: bool = False
    retry_after_seconds: int | None = None
    mangle: str | None = None

    def matches(self, method: str, path: str) -> bool:
        if self.method is not None and self.method.upper() != method.upper():
            return False
        return self.path_prefix is None or path.startswith(self.path_prefix)

    @property
    def fails(self) -> bool:
        return self.status is not None or self.drop_connection


class Faults:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._faults: list[Fault] = []

    def add(self, **settings: Any) -> Fault:
        fault = Fault(id=new_id(), **settings)
        with self._lock:
            self._faults.append(fault)
        return fault

    def clear(self) -> None:
        with self._lock:
            self._faults.clear()

    def take(self, method: str, path: str) -> Fault | None:
        """The first fault matching the request, one of its ``count`` used up."""
        with self._lock:
            for fault in self._faults:
                if fault.matches(method, path):
                    fault.count -= 1
                    if fault.count <= 0:
                        self._faults.remove(fault)
                    return fault
        return None


class RequestLog:
    """The service requests so far: the most recent ``limit`` of them, holding no more than
    ``max_bytes`` (the memory of their methods, paths, queries and ignored fields, counted as
    Python holds them). Older entries drop out, so neither many requests nor large ones (a
    query of tens of kilobytes, unauthenticated) grow a long-running emulator's memory."""

    def __init__(self, limit: int = 10_000, max_bytes: int = 16 * 1024**2) -> None:
        self._lock = threading.Lock()
        self._limit = limit
        self._max_bytes = max_bytes
        self._entries: deque[tuple[dict[str, Any], int]] = deque()
        self._bytes = 0

    @property
    def bytes(self) -> int:
        """The memory the entries hold, as counted against ``max_bytes``."""
        with self._lock:
            return self._bytes

    def add(self, method: str, path: str, query: dict[str, str]) -> dict[str, Any]:
        """A new entry; ``ignored`` lists the body and query fields the operation did not take
        (empty until ``note_ignored``)."""
        entry: dict[str, Any] = {
            "method": method,
            "path": path,
            "query": query,
            "status": None,
            "ignored": {"body": [], "query": []},
        }
        with self._lock:
            self._entries.append((entry, 0))
            self._resize(len(self._entries) - 1, entry)
        return entry

    def note_ignored(self, entry: dict[str, Any], ignored: dict[str, list[str]]) -> None:
        with self._lock:
            entry["ignored"] = ignored
            for index in range(len(self._entries) - 1, -1, -1):
                if self._entries[index][0] is entry:
                    self._resize(index, entry)
                    return

    def _resize(self, index: int, entry: dict[str, Any]) -> None:
        size = _size(entry)
        self._bytes += size - self._entries[index][1]
        self._entries[index] = (entry, size)
        while len(self._entries) > self._limit or (
            self._bytes > self._max_bytes and len(self._entries) > 1
        ):
            self._bytes -= self._entries.popleft()[1]

    def entries(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(entry) for entry, _ in self._entries]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0


def _size(value: Any) -> int:
    """The memory ``value`` holds: itself and, for containers, what they hold."""
    size = sys.getsizeof(value)
    if isinstance(value, dict):
        size += sum(_size(key) + _size(item) for key, item in value.items())
    elif isinstance(value, list):
        size += sum(_size(item) for item in value)
    return size


class RateLimiter:
    """A token bucket per API key: ``rate`` requests per emulated second, bursts up to
    ``max(rate, 1)``. Buckets are kept for at most ``max_keys`` keys (any text a caller sends
    is a key until it is authenticated): past that, the full ones, which the limiter would make
    again as they are, are dropped, then the longest unused."""

    MAX_KEYS = 10_000

    def __init__(self, clock: Clock, rate: float | None) -> None:
        self.clock = clock
        self.rate = rate
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}

    def check(self, key: str) -> int | None:
        """None when the request may pass; otherwise the Retry-After seconds."""
        if self.rate is None:
            return None
        capacity = max(self.rate, 1.0)
        now = self.clock.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (capacity, now))
            tokens = min(capacity, tokens + (now - last) * self.rate)
            if len(self._buckets) >= self.MAX_KEYS and key not in self._buckets:
                self._prune(now, capacity)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return None
            self._buckets[key] = (tokens, now)
            wait = self.clock.real_seconds((1.0 - tokens) / self.rate)
            return max(1, math.ceil(wait))

    def __len__(self) -> int:
        """How many keys have a bucket."""
        with self._lock:
            return len(self._buckets)

    def _prune(self, now: float, capacity: float) -> None:
        assert self.rate is not None
        rate = self.rate
        full = [
            k
            for k, (tokens, last) in self._buckets.items()
            if tokens + (now - last) * rate >= capacity
        ]
        for key in full:
            del self._buckets[key]
        if len(self._buckets) >= self.MAX_KEYS:
            by_use = sorted(self._buckets, key=lambda k: self._buckets[k][1])
            for key in by_use[: len(by_use) // 2]:
                del self._buckets[key]

    def reset(self) -> None:
        with self._lock:
            self._buckets.clear()
