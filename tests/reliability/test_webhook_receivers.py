"""Receiver-side verification, beyond the example-based tests: properties over any body, secret
and signature, the digest comparison, and a receiver fed by the emulator's real deliveries."""

from __future__ import annotations

import hmac
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.webhooks import (
    InvalidDeliveryError,
    WebhookDelivery,
    compute_signature,
    parse_delivery,
    verify_signature,
)

# HMAC pads short keys with zero bytes and hashes keys past 64 bytes, so "a" and "a\0" sign
# alike; real secrets are printable and short, which is what these properties quantify over.
SECRETS = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=60)
BODIES = st.binary(max_size=300)
HEX = "0123456789abcdef"
PROPERTY = settings(max_examples=200, deadline=None, derandomize=True, database=None)


@PROPERTY
@given(body=BODIES, secret=SECRETS)
def test_a_genuine_signature_always_verifies(body: bytes, secret: str) -> None:
    assert verify_signature(body, compute_signature(body, secret), secret)


@PROPERTY
@given(body=BODIES, other=BODIES, secret=SECRETS)
def test_a_changed_body_never_verifies(body: bytes, other: bytes, secret: str) -> None:
    assume(body != other)
    assert not verify_signature(other, compute_signature(body, secret), secret)


@PROPERTY
@given(body=BODIES, secret=SECRETS, wrong=SECRETS)
def test_a_wrong_secret_never_verifies(body: bytes, secret: str, wrong: str) -> None:
    assume(secret != wrong)
    assert not verify_signature(body, compute_signature(body, secret), wrong)


@PROPERTY
@given(body=BODIES, secret=SECRETS, position=st.integers(0, 39), digit=st.sampled_from(HEX))
def test_any_one_changed_digit_is_refused(
    body: bytes, secret: str, position: int, digit: str
) -> None:
    genuine = compute_signature(body, secret)
    assume(genuine[position] != digit)
    forged = genuine[:position] + digit + genuine[position + 1 :]
    assert not verify_signature(body, forged, secret)


@PROPERTY
@given(body=BODIES, secret=SECRETS, header=st.text(max_size=60))
def test_a_malformed_header_is_refused(body: bytes, secret: str, header: str) -> None:
    genuine = compute_signature(body, secret)
    assume(header.strip().lower() != genuine)
    assert not verify_signature(body, header, secret)


@PROPERTY
@given(body=BODIES, secret=SECRETS, position=st.integers(0, 39))
def test_every_wrong_digest_goes_through_one_constant_time_comparison(
    body: bytes, secret: str, position: int
) -> None:
    """Wherever the first wrong digit is, the decision is compare_digest's over the full digest."""
    genuine = compute_signature(body, secret)
    flipped = HEX[(HEX.index(genuine[position]) + 1) % 16]
    forged = genuine[:position] + flipped + genuine[position + 1 :]
    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("altostratus.webhooks.hmac.compare_digest", spy)
        assert not verify_signature(body, forged, secret)
    assert calls == [(genuine, forged)] or calls == [(forged, genuine)]


def test_headers_without_a_signature_are_refused_whatever_else_they_hold() -> None:
    body = b'{"event": "network.created", "resourceID": "x"}'
    for headers in ({}, {"X-Service-Event": "e"}, {"X-Service-Signature-Old": "0" * 40}):
        with pytest.raises(InvalidDeliveryError):
            parse_delivery(body, headers, secret="s")


class VerifyingReceiver:
    """An HTTP receiver on 127.0.0.1 that accepts only deliveries that verify (else 401)."""

    def __init__(self) -> None:
        self.secret = ""
        self.accepted: list[WebhookDelivery] = []
        self.refused = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    delivery = parse_delivery(body, dict(self.headers), secret=receiver.secret)
                except InvalidDeliveryError:
                    receiver.refused += 1
                    status = 401
                else:
                    receiver.accepted.append(delivery)
                    status = 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def post(self, body: bytes, headers: dict[str, str]) -> int:
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as error:
            return error.code

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def verifying_receiver() -> Iterator[VerifyingReceiver]:
    receiving = VerifyingReceiver()
    yield receiving
    receiving.close()


def test_a_receiver_accepts_real_deliveries_and_refuses_tampered_ones(
    client: Client, fresh_emulator: Emulator, verifying_receiver: VerifyingReceiver
) -> None:
    created = client.webhooks.create(url=verifying_receiver.url, events=["network.created"])
    verifying_receiver.secret = str(client.webhooks.get(created.id).secret)
    network = client.networks.create(label="watched")
    assert fresh_emulator.dispatcher.wait_idle()
    assert [(d.event, d.resource_id) for d in verifying_receiver.accepted] == [
        ("network.created", network.id)
    ]
    assert verifying_receiver.refused == 0

    body = json.dumps({"event": "network.created", "resourceID": network.id}).encode()
    genuine = compute_signature(body, verifying_receiver.secret)
    tampered = body.replace(b"created", b"deleted")
    for sent, headers in [
        (tampered, {"X-Service-Signature": genuine}),
        (body, {"X-Service-Signature": compute_signature(body, verifying_receiver.secret + "x")}),
        (body, {}),
        (body, {"X-Service-Signature": "sha1=" + genuine}),
        (body, {"X-Service-Signature": genuine[:-1]}),
    ]:
        assert verifying_receiver.post(sent, {"Content-Type": "application/json", **headers}) == 401
    assert verifying_receiver.post(body, {"X-Service-Signature": genuine}) == 200
    assert verifying_receiver.refused == 5
