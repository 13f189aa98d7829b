"""Record the service requests a run makes, and send the same requests again with bare httpx.

``Recorder`` is a loopback proxy in front of the emulator: each request (method, path and query,
body) and its answer is kept in the order the requests arrived. ``replay`` sends them again one
at a time; what the service generates (ids, keys, addresses) differs from one run to the next,
so every value an answer gave in the recording is replaced, in the later requests, by the value
the same answer gives in the replay.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

_FORWARDED = ("authorization", "content-type", "accept", "user-agent")


@dataclass
class Exchange:
    method: str
    target: str  # path and query
    body: bytes
    content_type: str
    status: int = 0
    answer: bytes = b""


class Recorder:
    """A proxy on a free loopback port: point a client at ``url`` instead of ``api_url``."""

    def __init__(self, api_url: str) -> None:
        self.exchanges: list[Exchange] = []
        lock = threading.Lock()
        upstream = httpx.Client(base_url=api_url, timeout=60.0)
        exchanges = self.exchanges

        class Handler(BaseHTTPRequestHandler):
            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                exchange = Exchange(
                    self.command, self.path, body, self.headers.get("Content-Type", "")
                )
                with lock:
                    exchanges.append(exchange)
                headers = {k: v for k, v in self.headers.items() if k.lower() in _FORWARDED}
                answer = upstream.request(self.command, self.path, content=body, headers=headers)
                exchange.status, exchange.answer = answer.status_code, answer.content
                self.send_response(answer.status_code)
                for name in ("Content-Type", "Retry-After"):
                    if name in answer.headers:
                        self.send_header(name, answer.headers[name])
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _forward

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._upstream = upstream
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._upstream.close()


def raw_client(api_url: str, api_key: str) -> httpx.Client:
    """An httpx client with the library's headers, so both sides send the same bytes."""
    headers = {"Authorization": f"bearer {api_key}", "Accept": "application/json"}
    return httpx.Client(base_url=api_url, headers=headers, timeout=30.0)


def _decoded(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def _learn(recorded: Any, replayed: Any, found: dict[str, str]) -> None:
    """Pair the strings of two answers of the same request: recorded value → replayed value."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in recorded.keys() & replayed.keys():
            _learn(recorded[key], replayed[key], found)
    elif isinstance(recorded, list) and isinstance(replayed, list):
        for old, new in zip(recorded, replayed, strict=False):
            _learn(old, new, found)
    elif isinstance(recorded, str) and isinstance(replayed, str) and recorded != replayed:
        found[recorded] = replayed


def _rewrite(text: str, found: dict[str, str]) -> str:
    # Ids, keys, names and addresses; short values (codes, states) could match by chance.
    for old in sorted((old for old in found if len(old) >= 6), key=len, reverse=True):
        text = text.replace(old, found[old])
    return text


def replay(
    http: httpx.Client, exchanges: list[Exchange], found: dict[str, str] | None = None
) -> list[int]:
    """Send the recorded requests again, in order; the statuses of the answers. ``found`` keeps
    the recorded values and their replayed ones from one call to the next (a later part of the
    same recording)."""
    found = {} if found is None else found
    statuses = []
    for exchange in exchanges:
        body = _rewrite(exchange.body.decode(), found).encode() if exchange.body else None
        headers = {"Content-Type": exchange.content_type} if exchange.content_type else {}
        answer = http.request(
            exchange.method, _rewrite(exchange.target, found), content=body, headers=headers
        )
        statuses.append(answer.status_code)
        _learn(_decoded(exchange.answer), _decoded(answer.content), found)
    return statuses
