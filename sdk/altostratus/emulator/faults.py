"""Test controls around service requests: injected faults, the request log, the rate limiter."""

from __future__ import annotations

import json
import math
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
    """The service requests so far, the most recent ``limit`` of them (older ones drop out, so a
    long-running emulator's memory stays bounded)."""

    def __init__(self, limit: int = 10_000) -> None:
        self._lock = threading.Lock()
        self._entries: deque[dict[str, Any]] = deque(maxlen=limit)

    def add(self, method: str, path: str, query: dict[str, str]) -> dict[str, Any]:
        """A new entry; ``ignored`` lists the body and query fields the operation did not take
        (empty until the request is matched to an operation)."""
        entry: dict[str, Any] = {
            "method": method,
            "path": path,
            "query": query,
            "status": None,
            "ignored": {"body": [], "query": []},
        }
        with self._lock:
            self._entries.append(entry)
        return entry

    def entries(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(e) for e in self._entries]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


class RateLimiter:
    """A token bucket per API key: ``rate`` requests per emulated second, bursts up to
    ``max(rate, 1)``."""

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
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return None
            self._buckets[key] = (tokens, now)
            wait = self.clock.real_seconds((1.0 - tokens) / self.rate)
            return max(1, math.ceil(wait))

    def reset(self) -> None:
        with self._lock:
            self._buckets.clear()
