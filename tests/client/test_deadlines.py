"""Bounds of one call whatever the server does: a floor under `Retry-After`, a total deadline.

The retry tests run on the fake clock. The deadline tests talk to a server on the loopback
interface that answers one byte at a time with pauses between them (as a broken proxy or an
overloaded service may): httpx's read timeout alone restarts with every byte and never ends such
a call. Their bounds are generous: a call must end within its deadline plus one second.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from altostratus.client import Client
from altostratus.client._http import HTTPClient
from altostratus.client.errors import (
    APITimeoutError,
    OutcomeUnknownError,
    RateLimitError,
    ServerError,
    parse_retry_after,
)

from .conftest import API_KEY, FakeAPI, FakeClock, answer

RATE_LIMITED = {"result": "failed", "code": "rate_limited", "reason": "Slow down."}
FAILED = {"result": "failed", "code": "internal_error", "reason": "Injected fault."}

# -- Retry-After: a floor, and the call's budget -------------------------------------------------


def test_retry_after_zero_for_ten_seconds_sends_fewer_than_a_hundred_requests(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    http.max_retry_seconds = 10.0
    fake_api.default = lambda request: answer(429, RATE_LIMITED, **{"Retry-After": "0"})
    with pytest.raises(RateLimitError):
        http.request("GET", "/v2/quota")
    assert 10 <= len(fake_api.requests) < 100
    assert min(fake_clock.sleeps) >= 0.5
    assert fake_clock.now <= 10.0


def test_a_retry_after_date_in_the_past_waits_the_floor(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    past = "Wed, 21 Oct 2015 07:28:00 GMT"
    fake_api.queue(answer(503, FAILED, **{"Retry-After": past}), answer(200, {"result": "success"}))
    http.request("GET", "/v2/quota")
    assert fake_clock.sleeps == [0.5]


def test_a_retry_after_date_counts_from_now() -> None:
    soon = datetime.now(timezone.utc) + timedelta(hours=1)
    seconds = parse_retry_after(format_datetime(soon, usegmt=True))
    assert seconds is not None and 3590 < seconds <= 3600
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert parse_retry_after("soon") is None


def test_retries_never_wait_past_the_calls_deadline(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    http.deadline = 10.0
    http.max_retries = 100
    fake_api.default = lambda request: answer(503, FAILED, **{"Retry-After": "3"})
    with pytest.raises(ServerError):
        http.request("GET", "/v2/quota")
    assert fake_clock.sleeps == [3.0, 3.0, 3.0]  # a fourth wait would end at 12 s
    assert len(fake_api.requests) == 4


# -- a server that drips its answer --------------------------------------------------------------


class Dripping(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, pause: float, in_headers: bool) -> None:
        super().__init__(("127.0.0.1", 0), Drip)
        self.pause = pause
        self.in_headers = in_headers
        self.stop = threading.Event()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class Drip(BaseHTTPRequestHandler):
    """Answers with a long JSON body (or its headers) one byte per pause, until the client
    goes away or the test ends."""

    protocol_version = "HTTP/1.1"
    server: Dripping

    def do_GET(self) -> None:
        self._drip()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._drip()

    def _drip(self) -> None:
        body = b'{"id": "' + b"x" * 10_000 + b'"}'
        head = (
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        if not self.server.in_headers:
            self.wfile.write(head)
            head = b""
        try:
            for byte in head + body:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                if self.server.stop.wait(self.server.pause):
                    return
        except OSError:
            return  # the client gave up

    def log_message(self, format: str, *args: object) -> None:
        return None


@pytest.fixture(params=["body", "headers"])
def dripping(request: pytest.FixtureRequest) -> Iterator[Dripping]:
    """A server sending one byte every 2 s, of the answer's body or already of its headers."""
    server = Dripping(pause=2.0, in_headers=request.param == "headers")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.stop.set()
    server.shutdown()
    server.server_close()


def test_a_dripping_server_fails_the_call_at_its_deadline(dripping: Dripping) -> None:
    with Client(API_KEY, dripping.url, deadline=3.0) as client:
        started = time.monotonic()
        with pytest.raises(APITimeoutError, match=r"no complete answer .* in 3 s"):
            client.networks.get("n1")
        elapsed = time.monotonic() - started
    assert elapsed < 3.0 + 1.0


def test_a_dripping_server_fails_each_attempt_within_the_request_timeout(
    dripping: Dripping,
) -> None:
    """`timeout=3`: no attempt lasts longer than 3 s, however often a byte comes; a create
    stopped so is an unknown outcome (it was sent), after one attempt."""
    with Client(API_KEY, dripping.url, timeout=3.0) as client:
        started = time.monotonic()
        with pytest.raises(OutcomeUnknownError) as caught:
            client.networks.create(label="slow")
        elapsed = time.monotonic() - started
    assert isinstance(caught.value.cause, APITimeoutError)
    assert elapsed < 3.0 + 1.0
