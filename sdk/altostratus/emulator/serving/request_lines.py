"""One printed line per service request: what ``altostratus emulator`` shows as it serves.

``text`` (the default) reads as ``POST /v2/vpc/networks 200 3.1ms ignored: body.colour``;
``json`` gives one object per line for machines: ``{"method", "path", "status", "ms",
"ignored": {"body": [...], "query": [...]}}``. The status is ``-`` (null in JSON) for a request
whose connection was dropped by an injected fault. The fields are those of the request log
(``/_emulator/requests``), plus the time the emulator took to answer. A text line escapes every
control character its sender put in it (see ``altostratus._terminal``); JSON escapes them itself.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Literal, TextIO

from altostratus._terminal import escaped

Format = Literal["text", "json"]
FORMATS: tuple[Format, ...] = ("text", "json")


def ignored_names(entry: dict[str, Any]) -> list[str]:
    """``body.<field>`` and ``query.<field>`` for each field the operation did not take."""
    ignored = entry.get("ignored") or {}
    return [f"{where}.{name}" for where in ("body", "query") for name in ignored.get(where, [])]


def text_line(entry: dict[str, Any], seconds: float) -> str:
    """The request's line, whatever its sender put in it (the path, the ignored field names)
    escaped as ``escaped`` does: a request cannot act on the terminal or forge a line."""
    status = "-" if entry.get("status") is None else str(entry["status"])
    line = f"{escaped(entry['method'])} {escaped(entry['path'])} {status} {seconds * 1000:.1f}ms"
    names = ignored_names(entry)
    return f"{line} ignored: {escaped(', '.join(names))}" if names else line


def json_line(entry: dict[str, Any], seconds: float) -> str:
    ignored = entry.get("ignored") or {}
    return json.dumps(
        {
            "method": entry["method"],
            "path": entry["path"],
            "status": entry.get("status"),
            "ms": round(seconds * 1000, 1),
            "ignored": {"body": ignored.get("body", []), "query": ignored.get("query", [])},
        },
        separators=(",", ":"),
    )


class RequestPrinter:
    """Writes each finished request's line to ``stream`` (whole lines, from any thread)."""

    def __init__(self, stream: TextIO, format: Format = "text") -> None:
        self.stream = stream
        self.line = json_line if format == "json" else text_line
        self._lock = threading.Lock()

    def __call__(self, entry: dict[str, Any], seconds: float) -> None:
        self.write(self.line(entry, seconds))

    def write(self, *lines: str) -> None:
        """Whole lines, flushed: the requests' lines, and whatever is shown before them (a line
        of a request served meanwhile waits for these)."""
        with self._lock:
            for line in lines:
                self.stream.write(line + "\n")
            self.stream.flush()
