"""The request log: the service requests so far, with the fields each operation ignored
(``GET /_emulator/requests``, ``emulator.requests()``), bounded in entries and in memory."""

from __future__ import annotations

import sys
import threading
from collections import deque
from typing import Any


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
        # The entry's size as ``_size`` counts it, without walking its fixed parts (the keys and
        # the empty ignored fields) again for every request.
        size = sys.getsizeof(entry) + _FIXED + sys.getsizeof(method) + sys.getsizeof(path)
        size += _size(query)
        with self._lock:
            self._entries.append((entry, 0))
            self._resize(len(self._entries) - 1, entry, size)
        return entry

    def note_ignored(self, entry: dict[str, Any], ignored: dict[str, list[str]]) -> None:
        # Only the ignored fields change: the entry's size moves by theirs, not counted again
        # whole (the dict keeps its keys, so its own size stays).
        change = _size(ignored) - _size(entry["ignored"])
        with self._lock:
            entry["ignored"] = ignored
            for index in range(len(self._entries) - 1, -1, -1):
                if self._entries[index][0] is entry:
                    self._resize(index, entry, self._entries[index][1] + change)
                    return

    def _resize(self, index: int, entry: dict[str, Any], size: int | None = None) -> None:
        if size is None:
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


#: What a new entry holds besides its dict, method, path and query: its keys, no status yet, and
#: the empty ignored fields.
_FIXED = (
    sum(_size(key) for key in ("method", "path", "query", "status", "ignored"))
    + _size(None)
    + _size({"body": [], "query": []})
)
