"""Connections: one client shared by many threads keeps a connection for each of them.

A provider process serves dozens of calls at once through one client (readiness polls, deletes
waiting for 404): a connection dropped after each call would cost a new TCP (and, on the real
service, TLS) handshake for every poll.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from altostratus.client._http import HTTPClient
from altostratus.client._settings import Settings

AT_ONCE = 48


class Counting(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Answer)
        self.connections = 0
        self.together = threading.Barrier(AT_ONCE, timeout=30)

    def get_request(self) -> tuple[object, object]:  # type: ignore[override]
        accepted = super().get_request()
        self.connections += 1  # the serving thread accepts one at a time
        return accepted


class Answer(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    server: Counting

    def do_GET(self) -> None:
        self.server.together.wait()  # every call of the wave is in flight at once
        body = b'{"result": "success"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return None


@pytest.fixture
def server() -> Iterator[Counting]:
    served = Counting()
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    served.shutdown()
    served.server_close()


def test_calls_at_once_keep_their_connections_for_the_next_calls(server: Counting) -> None:
    host, port = server.server_address[:2]
    settings = Settings(api_key="k", api_url=f"http://{host!s}:{port}", region="LON1")
    http = HTTPClient(settings)
    try:
        with ThreadPoolExecutor(AT_ONCE) as pool:
            for _wave in range(3):
                answers = list(pool.map(lambda _: http.request("GET", "/v2/quota"), range(AT_ONCE)))
                assert answers == [{"result": "success"}] * AT_ONCE
    finally:
        http.close()
    assert server.connections == AT_ONCE
