"""Injected faults: the next service requests matching a method and a path fail as asked
(a status, a lost connection, a delay, after the change is made or before) or are served and
have their answer's body mangled as a broken proxy might (``MANGLES``). ``POST /_emulator/faults``
adds one; the app takes one for each service request it serves."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

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
