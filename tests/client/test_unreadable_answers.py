"""Answers the client cannot take as what it asked for: not JSON, an HTML page, empty, the wrong
shape, too large; and error text from the server or the settings, made safe to show."""

from __future__ import annotations

import threading
import tracemalloc
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from altostratus.client import Client
from altostratus.client._settings import DEFAULT_MAX_ANSWER_BYTES
from altostratus.client.errors import (
    APIConnectionError,
    InvalidResponseError,
    OutcomeUnknownError,
    ServerError,
)
from tests.support.ports import refusing_port

from .conftest import API_KEY, FakeAPI, answer

MB = 1024 * 1024
NETWORK = {"id": "n1", "result": "success", "label": "app"}

UNREADABLE = {
    "truncated JSON": httpx.Response(
        200, content=b'{"id": "n1", "resu', headers={"Content-Type": "application/json"}
    ),
    "an HTML page": httpx.Response(
        200,
        content=b"<html><body><h1>Service unavailable</h1></body></html>",
        headers={"Content-Type": "text/html"},
    ),
    "JSON declared as HTML": httpx.Response(
        200, content=b'{"id": "n1"}', headers={"Content-Type": "text/html; charset=utf-8"}
    ),
    "an empty body": httpx.Response(201),
    "a list": httpx.Response(200, json=[NETWORK]),
    "an envelope": httpx.Response(200, json={"result": "success", "network": NETWORK}),
    "a null id": httpx.Response(200, json={**NETWORK, "id": None}),
}


@pytest.mark.parametrize("unreadable", list(UNREADABLE.values()), ids=list(UNREADABLE))
def test_a_create_answered_with_something_else_than_the_record_is_an_unknown_outcome(
    fake_client: Client, fake_api: FakeAPI, unreadable: httpx.Response
) -> None:
    fake_api.queue(unreadable)
    with pytest.raises(OutcomeUnknownError, match="look for the resource") as caught:
        fake_client.networks.create(label="app")
    assert len(fake_api.requests) == 1  # never sent again blindly
    assert isinstance(caught.value.cause, InvalidResponseError)
    assert caught.value.status is not None and 200 <= caught.value.status < 300


def test_a_read_answered_with_an_html_page_is_an_invalid_response(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    fake_api.queue(UNREADABLE["JSON declared as HTML"])
    with pytest.raises(InvalidResponseError, match="the answer is text/html, not JSON"):
        fake_client.networks.get("n1")


def test_json_served_as_plain_text_or_without_a_type_is_read(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    record = b'{"id": "n1", "label": "app"}'
    fake_api.queue(
        httpx.Response(200, content=record, headers={"Content-Type": "text/plain"}),
        httpx.Response(200, content=record),
    )
    assert fake_client.networks.get("n1").label == "app"
    assert fake_client.networks.get("n1").label == "app"


def test_a_body_that_is_not_the_encoding_it_declares_is_an_invalid_response(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    body = iter([b'{"id": "n1"}'])  # declared gzip, sent plain
    headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
    fake_api.queue(httpx.Response(200, headers=headers, content=body))
    with pytest.raises(InvalidResponseError) as caught:
        fake_client.networks.get("n1")
    assert caught.value.code == "invalid_encoding"


# -- the size of an answer -----------------------------------------------------------------------


def chunks_of(total: int, produced: list[int]) -> Iterator[bytes]:
    """``total`` bytes of JSON-ish filler in 64 KiB chunks, counting what was asked for."""
    chunk = b" " * (64 * 1024)
    for _ in range(total // len(chunk)):
        produced[0] += len(chunk)
        yield chunk


def peak_memory_of(call: object) -> tuple[int, BaseException | None]:
    """The peak of Python allocations during ``call()``, and what it raised."""
    tracemalloc.start()
    raised: BaseException | None = None
    try:
        call()  # type: ignore[operator]
    except Exception as error:
        raised = error
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, raised


def test_a_150_mb_answer_is_refused_after_the_limit_without_the_memory(fake_api: FakeAPI) -> None:
    produced = [0]
    fake_api.default = lambda request: httpx.Response(
        200, headers={"Content-Type": "application/json"}, content=chunks_of(150 * MB, produced)
    )
    with Client(API_KEY, "http://api.test", transport=httpx.MockTransport(fake_api)) as client:
        peak, raised = peak_memory_of(lambda: client.networks.get("n1"))
    assert isinstance(raised, InvalidResponseError)
    assert raised.code == "answer_too_large"
    assert raised.reason == (
        f"the answer is more than the {DEFAULT_MAX_ANSWER_BYTES} bytes read (max_answer_bytes)"
    )
    assert produced[0] <= DEFAULT_MAX_ANSWER_BYTES + 64 * 1024  # reading stopped there
    assert peak < 100 * MB


class Large(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), LargeAnswer)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class LargeAnswer(BaseHTTPRequestHandler):
    """Answers every call with a 150 MB body, declared in Content-Length, written 1 MB at a time
    until the client goes away."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(150 * MB))
        self.end_headers()
        try:
            for _ in range(150):
                self.wfile.write(b" " * MB)
        except OSError:
            return

    def log_message(self, format: str, *args: object) -> None:
        return None


@pytest.fixture
def large() -> Iterator[Large]:
    server = Large()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_a_150_mb_answer_from_a_server_is_refused_by_its_declared_size(large: Large) -> None:
    with Client(API_KEY, large.url, max_answer_bytes=MB) as client:
        peak, raised = peak_memory_of(lambda: client.quota.get())
    assert isinstance(raised, InvalidResponseError)
    assert raised.reason == (
        f"the answer is {150 * MB} bytes, more than the {MB} bytes read (max_answer_bytes)"
    )
    assert peak < 100 * MB


def test_a_create_answered_with_too_much_is_an_unknown_outcome(fake_api: FakeAPI) -> None:
    fake_api.queue(httpx.Response(201, json={**NETWORK, "padding": "x" * 2048}))
    with (
        Client(
            API_KEY,
            "http://api.test",
            max_answer_bytes=1024,
            transport=httpx.MockTransport(fake_api),
        ) as client,
        pytest.raises(OutcomeUnknownError, match="answer_too_large") as caught,
    ):
        client.networks.create(label="app")
    assert isinstance(caught.value.cause, InvalidResponseError)


# -- error text ----------------------------------------------------------------------------------


def test_the_servers_escape_sequences_and_line_breaks_never_reach_the_message(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    reason = "\x1b[31mdisk \x1b]0;owned\x07full\x1b[0m\r\nretry\x00 later\x9b"
    fake_api.queue(answer(500, {"code": "internal\x1b[2J_error", "reason": reason}))
    with pytest.raises(ServerError) as caught:
        fake_client.networks.get("n1")
    message = str(caught.value)
    assert message == "500 internal_error: disk full retry later (GET /v2/vpc/networks/n1)"


def test_credentials_in_urls_are_masked_in_answers(fake_client: Client, fake_api: FakeAPI) -> None:
    reason = "upstream https://admin:s3cret@10.0.0.1/x and https://tok3n@10.0.0.2/ failed"
    fake_api.queue(answer(500, {"code": "bad_gateway", "reason": reason}))
    with pytest.raises(ServerError) as caught:
        fake_client.networks.get("n1")
    assert "s3cret" not in str(caught.value) and "tok3n" not in str(caught.value)
    assert "https://admin:***@10.0.0.1/x and https://***@10.0.0.2/" in str(caught.value)


def test_a_password_in_the_api_url_is_masked() -> None:
    with (
        refusing_port() as port,
        Client(API_KEY, f"http://deploy:hunter2@127.0.0.1:{port}", max_retries=0) as client,
    ):
        assert "hunter2" not in repr(client)
        with pytest.raises(APIConnectionError) as caught:
            client.networks.get("n1")
    assert "hunter2" not in str(caught.value)
    assert f"cannot reach http://deploy:***@127.0.0.1:{port}" in str(caught.value)
