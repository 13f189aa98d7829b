"""Receiving the service's webhook deliveries safely.

The service signs every delivery: ``X-Service-Signature`` holds the hexadecimal HMAC-SHA1 of the
exact request body, keyed with the webhook's secret. ``X-Service-Event`` is a UUID that every
retry of the same event repeats, so a receiver can skip duplicates.

Verify over the raw bytes as they arrived, before parsing them: re-serialized JSON differs from
what was signed. ``parse_delivery`` does both and returns a typed event::

    event = parse_delivery(request.body, request.headers, secret=WEBHOOK_SECRET)
    if seen(event.event_id):
        return 200
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "EVENT_HEADER",
    "SIGNATURE_HEADER",
    "InvalidDeliveryError",
    "WebhookDelivery",
    "compute_signature",
    "parse_delivery",
    "verify_signature",
]

SIGNATURE_HEADER = "X-Service-Signature"
EVENT_HEADER = "X-Service-Event"


class InvalidDeliveryError(ValueError):
    """A delivery whose signature, headers or body cannot be trusted."""


@dataclass(frozen=True)
class WebhookDelivery:
    """A verified delivery."""

    event: str
    """The event name, e.g. ``network.created``."""
    resource_id: str
    """The identifier of the resource the event is about."""
    event_id: str | None
    """``X-Service-Event``: the same on every retry of one event; ``None`` when absent."""


def compute_signature(body: bytes, secret: str) -> str:
    """The hexadecimal HMAC-SHA1 of ``body`` keyed with ``secret``, as the service sends it."""
    return hmac.new(secret.encode("utf-8"), body, hashlib.sha1).hexdigest()


def verify_signature(body: bytes, signature: str | None, secret: str) -> bool:
    """True when ``signature`` is the service's signature of ``body`` under ``secret``.

    The comparison takes the same time wherever the two differ. A missing, empty or malformed
    signature, or an empty secret, is refused.
    """
    if not isinstance(body, bytes | bytearray) or not signature or not secret:
        return False
    candidate = signature.strip().lower()
    if len(candidate) != 40:
        return False
    try:
        bytes.fromhex(candidate)
    except ValueError:
        return False
    return hmac.compare_digest(compute_signature(bytes(body), secret), candidate)


def _header(headers: Mapping[str, str], name: str) -> str | None:
    wanted = name.lower()
    for key, value in headers.items():
        if key.lower() == wanted:
            return value
    return None


def parse_delivery(body: bytes, headers: Mapping[str, str], *, secret: str) -> WebhookDelivery:
    """Verify a delivery and return its event; raise ``InvalidDeliveryError`` otherwise."""
    signature = _header(headers, SIGNATURE_HEADER)
    if signature is None:
        raise InvalidDeliveryError(f"the delivery has no {SIGNATURE_HEADER} header")
    if not verify_signature(body, signature, secret):
        raise InvalidDeliveryError(
            f"the {SIGNATURE_HEADER} header does not match the body under this webhook's secret"
        )
    try:
        payload = json.loads(body)
    except ValueError as exc:
        raise InvalidDeliveryError("the delivery body is not JSON") from exc
    if not isinstance(payload, dict):
        raise InvalidDeliveryError("the delivery body is not a JSON object")
    event, resource_id = payload.get("event"), payload.get("resourceID")
    if not isinstance(event, str) or not isinstance(resource_id, str):
        raise InvalidDeliveryError("the delivery body lacks the text fields event and resourceID")
    return WebhookDelivery(
        event=event, resource_id=resource_id, event_id=_header(headers, EVENT_HEADER)
    )
