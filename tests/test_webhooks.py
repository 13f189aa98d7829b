from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from altostratus.webhooks import (
    InvalidDeliveryError,
    compute_signature,
    parse_delivery,
    verify_signature,
)

SECRET = "0123456789abcdef0123456789abcdef01234567"
BODY = json.dumps(
    {"event": "network.created", "resourceID": "6f1c0f7e-1f1e-4c43-9d8e-4c1f0c6c1a11"}
).encode()


def sign(body: bytes, secret: str = SECRET) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha1).hexdigest()


def test_a_genuine_signature_verifies() -> None:
    assert verify_signature(BODY, sign(BODY), SECRET)
    assert compute_signature(BODY, SECRET) == sign(BODY)


def test_upper_case_hex_and_surrounding_space_verify() -> None:
    assert verify_signature(BODY, f" {sign(BODY).upper()} ", SECRET)


@pytest.mark.parametrize(
    ("body", "signature", "secret"),
    [
        pytest.param(BODY + b" ", sign(BODY), SECRET, id="changed-body"),
        pytest.param(BODY.replace(b"created", b"deleted"), sign(BODY), SECRET, id="changed-event"),
        pytest.param(BODY, sign(BODY), SECRET[:-1] + "8", id="wrong-secret"),
        pytest.param(BODY, None, SECRET, id="missing-signature"),
        pytest.param(BODY, "", SECRET, id="empty-signature"),
        pytest.param(BODY, "zz" * 20, SECRET, id="not-hex"),
        pytest.param(BODY, sign(BODY)[:-2], SECRET, id="truncated"),
        pytest.param(BODY, sign(BODY) + "00", SECRET, id="too-long"),
        pytest.param(BODY, hashlib.sha256(BODY).hexdigest(), SECRET, id="other-digest"),
        pytest.param(BODY, sign(BODY, ""), "", id="empty-secret"),
    ],
)
def test_untrustworthy_deliveries_are_refused(
    body: bytes, signature: str | None, secret: str
) -> None:
    assert not verify_signature(body, signature, secret)


def test_reserialized_json_does_not_verify() -> None:
    reserialized = json.dumps(json.loads(BODY), separators=(",", ":")).encode()
    assert reserialized != BODY
    assert not verify_signature(reserialized, sign(BODY), SECRET)


def test_parse_delivery_returns_the_typed_event() -> None:
    headers = {
        "x-service-signature": sign(BODY),
        "X-Service-Event": "e1b3f7c2-3a5f-4d4e-9f3a-1c2b3d4e5f60",
    }
    delivery = parse_delivery(BODY, headers, secret=SECRET)
    assert delivery.event == "network.created"
    assert delivery.resource_id == "6f1c0f7e-1f1e-4c43-9d8e-4c1f0c6c1a11"
    assert delivery.event_id == "e1b3f7c2-3a5f-4d4e-9f3a-1c2b3d4e5f60"


@pytest.mark.parametrize(
    ("body", "headers", "message"),
    [
        (BODY, {}, "no X-Service-Signature"),
        (BODY, {"X-Service-Signature": sign(b"other")}, "does not match"),
        (b"not json", {"X-Service-Signature": sign(b"not json")}, "not JSON"),
        (b"[1]", {"X-Service-Signature": sign(b"[1]")}, "not a JSON object"),
        (b'{"event": 1}', {"X-Service-Signature": sign(b'{"event": 1}')}, "lacks"),
    ],
)
def test_parse_delivery_refuses_with_a_reason(
    body: bytes, headers: dict[str, str], message: str
) -> None:
    with pytest.raises(InvalidDeliveryError, match=message):
        parse_delivery(body, headers, secret=SECRET)


def test_comparison_is_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest comparison goes through hmac.compare_digest, never ``==``."""
    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr("altostratus.webhooks.hmac.compare_digest", spy)
    assert verify_signature(BODY, sign(BODY), SECRET)
    assert not verify_signature(BODY, "0" * 40, SECRET)
    assert len(calls) == 2
