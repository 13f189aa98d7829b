"""Bounds on input: each too-large, too-deep or malformed request gets its 4xx in the error
format, never a 500, and nothing is made; memory is given back on reset."""

from __future__ import annotations

import gc
import json
import socket
import weakref
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest

from altostratus.emulator import Emulator
from altostratus.emulator.serving.limits import MAX_BODY_BYTES

from ..control.test_admin_protection import send
from ..serving.test_server import call


def raw(emulator: Emulator, head: str, body: bytes = b"") -> tuple[int, dict[str, Any]]:
    """Send a hand-written request; the status and the JSON error body."""
    parts = urlsplit(emulator.api_url)
    request = (
        head.replace("\n", "\r\n").format(host=parts.netloc, key=emulator.api_key).encode()
        + b"\r\n"
        + body
    )
    with socket.create_connection((parts.hostname or "", parts.port or 80), timeout=10) as sock:
        try:  # the emulator may answer (and close) before it has read everything
            sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head_bytes, _, payload = answer.partition(b"\r\n\r\n")
    status = int(head_bytes.split(b" ", 2)[1])
    return status, json.loads(payload)


POST = """POST /v2/vpc/networks HTTP/1.1
Host: {host}
Authorization: Bearer {key}
Content-Type: application/json
Connection: close
"""


def _labels(emulator: Emulator) -> list[str]:
    return [n["label"] for n in call(emulator, "GET", "/v2/vpc/networks")[1]]


def test_a_body_over_the_limit_is_413(fresh_emulator: Emulator) -> None:
    body = json.dumps({"label": "x" * (MAX_BODY_BYTES + 10)}).encode()
    status, answer = raw(fresh_emulator, POST + f"Content-Length: {len(body)}\n", body)
    assert (status, answer["code"]) == (413, "request_too_large")
    chunked = b"".join(
        b"%x\r\n%s\r\n" % (len(part), part)
        for part in (body[i : i + 65536] for i in range(0, len(body), 65536))
    )
    status, answer = raw(
        fresh_emulator, POST + "Transfer-Encoding: chunked\n", chunked + b"0\r\n\r\n"
    )
    assert (status, answer["code"]) == (413, "request_too_large")
    assert _labels(fresh_emulator) == ["Default"]


@pytest.mark.parametrize(
    "chunks",
    [b"zz\r\n{}\r\n0\r\n\r\n", b"5\r\n{}\r\n0\r\n\r\n", b"2\r\n{}", b"-2\r\n{}\r\n0\r\n\r\n"],
)
def test_a_malformed_chunked_body_is_400(fresh_emulator: Emulator, chunks: bytes) -> None:
    status, answer = raw(fresh_emulator, POST + "Transfer-Encoding: chunked\n", chunks)
    assert status == 400 and answer["result"] == "failed", answer
    assert _labels(fresh_emulator) == ["Default"]


def test_a_body_shorter_than_announced_is_400(fresh_emulator: Emulator) -> None:
    status, answer = raw(fresh_emulator, POST + "Content-Length: 100\n", b'{"label": "x"}')
    assert (status, answer["code"]) == (400, "parameter_body_invalid")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"label": "x" * 256}, "parameter_label_invalid"),
        ({"label": "nul\x00"}, "parameter_label_invalid"),
        ({"label": "two\nlines"}, "parameter_label_invalid"),
        ({"label": "escape\x1b[2J"}, "parameter_label_invalid"),
        ({"label": "ok", "nameservers_v4": ["10.0.0.1"] * 5000}, "parameter_nameservers_v4_invalid"),  # noqa: E501
    ],
)  # fmt: skip
def test_names_and_lists_are_bounded(
    fresh_emulator: Emulator, body: dict[str, Any], code: str
) -> None:
    status, answer = call(fresh_emulator, "POST", "/v2/vpc/networks", body)
    assert (status, answer["code"]) == (400, code), answer
    assert _labels(fresh_emulator) == ["Default"]


def test_backends_events_and_cidrs_are_bounded(fresh_emulator: Emulator) -> None:
    network_id = call(fresh_emulator, "GET", "/v2/vpc/networks")[1][0]["id"]
    backend = {"ip": "10.0.0.5", "protocol": "TCP", "source_port": 80, "target_port": 80}
    balancer = {"name": "lb", "network_id": network_id, "backends": [backend] * 2000}
    status, answer = call(fresh_emulator, "POST", "/v2/vpc/loadbalancers", balancer)
    assert (status, answer["code"]) == (400, "parameter_backends_invalid")
    webhook = {"url": "http://127.0.0.1:9/", "events": ["network.created"] * 5000}
    status, answer = call(fresh_emulator, "POST", "/v2/webhooks", webhook)
    assert (status, answer["code"]) == (400, "parameter_events_invalid")
    firewall = call(
        fresh_emulator, "POST", "/v2/vpc/firewalls", {"name": "fw", "network_id": network_id}
    )[1]
    rule = {"protocol": "tcp", "start_port": "22", "end_port": "22", "cidr": ["10.0.0.0/8"] * 5000}
    status, answer = call(fresh_emulator, "POST", f"/v2/vpc/firewalls/{firewall['id']}/rules", rule)
    assert (status, answer["code"]) == (400, "parameter_cidr_invalid")
    assert call(fresh_emulator, "GET", "/v2/vpc/loadbalancers")[1] == []
    assert call(fresh_emulator, "GET", "/v2/webhooks")[1] == []


@pytest.mark.parametrize(
    "body",
    [
        b'{"label": "x", "ipv4_enabled": ' + b"1" * 5000 + b"}",
        b'{"label": ' + b"[" * 100 + b"]" * 100 + b"}",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"label": "x", "cidr_v4": NaN}',
    ],
)
def test_huge_integers_deep_json_and_nan_are_400(fresh_emulator: Emulator, body: bytes) -> None:
    status, answer = send(
        fresh_emulator,
        "POST",
        "/v2/vpc/networks",
        body,
        {"Authorization": f"Bearer {fresh_emulator.api_key}", "Content-Type": "application/json"},
    )
    assert status == 400 and answer["result"] == "failed", answer
    assert _labels(fresh_emulator) == ["Default"]


def test_a_huge_integer_in_a_form_is_400(fresh_emulator: Emulator) -> None:
    form = urlencode({"name": "q", "network_id": "n", "max_concurrent_requests": "9" * 5000})
    status, answer = send(
        fresh_emulator,
        "POST",
        "/v2/vpc/loadbalancers",
        form.encode(),
        {
            "Authorization": f"Bearer {fresh_emulator.api_key}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    assert status == 400 and answer["result"] == "failed", answer


def test_memory_is_given_back_on_reset(fresh_emulator: Emulator) -> None:
    state = fresh_emulator.state
    fresh_emulator.state.default_account.limits["network_count"] = 200
    for number in range(150):
        call(fresh_emulator, "POST", "/v2/vpc/networks", {"label": f"n{number}"})
    with state.lock:
        held = [weakref.ref(n) for n in state.networks.all(state.default_account.id)]
    fresh_emulator.reset()
    gc.collect()
    assert [ref for ref in held if ref() is not None] == []
    assert call(fresh_emulator, "GET", "/_emulator/requests")[1] == []


def test_the_request_log_keeps_the_latest_entries_only() -> None:
    from altostratus.emulator.control.request_log import RequestLog

    log = RequestLog(limit=3)
    for number in range(5):
        log.add("GET", f"/{number}", {})
    assert [entry["path"] for entry in log.entries()] == ["/2", "/3", "/4"]


def test_the_request_log_counts_ignored_fields_against_its_memory_bound() -> None:
    from altostratus.emulator.control.request_log import RequestLog, _size

    log = RequestLog(max_bytes=4096)
    first = log.add("POST", "/v2/vpc/networks", {"region": "LON1"})
    assert log.bytes == _size(first), "a new entry counted as a whole recount counts it"
    log.note_ignored(first, {"body": ["colour"], "query": []})
    assert log.bytes == _size(first), "the noted fields counted as a whole recount counts them"
    second = log.add("GET", "/v2/vpc/networks", {})
    log.note_ignored(second, {"body": [], "query": [f"field-{n}" for n in range(40)]})
    assert log.bytes == _size(second), "the first entry dropped out once the second outgrew it"
    assert [entry["method"] for entry in log.entries()] == ["GET"]


def test_a_malformed_chunked_body_to_s3_is_400_xml(fresh_emulator: Emulator) -> None:
    status, credential = call(
        fresh_emulator, "POST", "/v2/objectstore/credentials", {"name": "c", "region": "LON1"}
    )
    assert status == 200
    parts = urlsplit(fresh_emulator.s3_url)
    head = (
        f"PUT /bucket/key HTTP/1.1\r\nHost: {parts.netloc}\r\nX-Amz-Date: 20260101T000000Z\r\n"
        "Authorization: AWS4-HMAC-SHA256 Credential="
        f"{credential['access_key_id']}/20260101/us-east-1/s3/aws4_request, "
        "SignedHeaders=host, Signature=00\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n"
    )
    with socket.create_connection((parts.hostname or "", parts.port or 80), timeout=10) as sock:
        sock.sendall(head.encode() + b"\r\nzz\r\nhello\r\n0\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line.split()[1] == b"400", answer
    assert b"<Code>IncompleteBody</Code>" in rest


def test_the_delivery_log_keeps_the_latest_entries_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from altostratus.emulator.clock import Clock
    from altostratus.emulator.webhooks import dispatcher

    monkeypatch.setattr(dispatcher, "KEPT_RECORDS", 2)
    deliveries = dispatcher.WebhookDispatcher(object(), Clock())  # type: ignore[arg-type]
    deliveries.restore({"queue": [], "records": [{"attempt": n} for n in range(5)]})
    assert deliveries.deliveries() == [{"attempt": 3}, {"attempt": 4}]
