"""A request body as the S3 front reads it: once, whole, drained when refused, and checked
against the digests the request claims for it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Any

from altostratus.emulator.s3 import chunked, sigv4
from altostratus.emulator.s3.errors import S3Error
from altostratus.emulator.serving import peers

_CHUNK = 1 << 20
_DRAIN_LIMIT = 1 << 30
_SINGLE_READ_LIMIT = 256 << 20
_HEX_SHA256 = re.compile(r"[0-9a-f]{64}")


def _content_length(environ: dict[str, Any]) -> int | None:
    try:
        return int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise S3Error(400, "InvalidArgument", "Content-Length is not a number.") from None


def read_body(environ: dict[str, Any]) -> bytes:
    """The whole request body, read once; marks the input as consumed. A body that cannot be
    read (malformed chunked encoding, a dropped connection) is a 400."""
    try:
        return _read_all(environ)
    except S3Error:
        raise
    except Exception:  # the peer's bytes, or its slowness: the connection is closed after
        raise S3Error(
            400, "IncompleteBody", "The request body could not be read (malformed chunks?)."
        ) from None


def _read_all(environ: dict[str, Any]) -> bytes:
    stream = environ["wsgi.input"]
    if environ.get("wsgi.input_terminated"):
        chunks = list(iter(lambda: stream.read(_CHUNK), b""))
    else:
        remaining = _content_length(environ) or 0
        chunks = []
        if 0 < remaining <= _SINGLE_READ_LIMIT:
            chunks.append(stream.read(remaining))
            remaining -= len(chunks[0])
        while remaining > 0:
            chunk = stream.read(min(remaining, _CHUNK))
            if not chunk:
                raise S3Error(400, "IncompleteBody", "The request body ended early.")
            chunks.append(chunk)
            remaining -= len(chunk)
    environ["altostratus.body_read"] = True
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def drain(environ: dict[str, Any]) -> bool:
    """Read a refused request's unread body, so the connection can serve the next request;
    False when it could not be read whole in the time a refusal allows (``peers.drain``): the
    answer then closes the connection."""
    if environ.get("altostratus.body_read"):
        return True
    if environ.get("wsgi.input_terminated"):
        return False  # chunked: its length is unknown
    try:
        length = _content_length(environ) or 0
    except S3Error:
        return False
    drained = peers.drain(environ, environ["wsgi.input"], length, _DRAIN_LIMIT)
    environ["altostratus.body_read"] = drained
    return drained


def stored_length(environ: dict[str, Any], body: bytes) -> int:
    """The bytes the store keeps of ``body``: an ``aws-chunked`` body (which moto decodes by its
    ``x-amz-content-sha256``, whoever signed it) counted from its chunks, and its
    ``x-amz-decoded-content-length`` required to say the same (moto sizes the object by it)."""
    mode = str(environ.get("HTTP_X_AMZ_CONTENT_SHA256", ""))
    if mode not in chunked.STREAMING:
        return len(body)
    length = chunked.decoded_length(body, signed=mode != chunked.STREAMING_UNSIGNED_TRAILER)
    claimed = str(environ.get("HTTP_X_AMZ_DECODED_CONTENT_LENGTH", "")).strip()
    if claimed != str(length):
        raise S3Error(
            400,
            "IncompleteBody",
            f"x-amz-decoded-content-length ({claimed or 'missing'}) does not match the "
            f"{length} bytes the chunks hold.",
        )
    return length


def check_payload(
    body: bytes, payload_hash: str, signature: sigv4.Signature, signing_key: bytes
) -> None:
    if payload_hash in (sigv4.UNSIGNED_PAYLOAD, chunked.STREAMING_UNSIGNED_TRAILER):
        return
    if payload_hash in (chunked.STREAMING_SIGNED, chunked.STREAMING_SIGNED_TRAILER):
        chunked.verify_chunks(body, signature, signing_key)
        return
    if not _HEX_SHA256.fullmatch(payload_hash):
        raise S3Error(400, "InvalidArgument", "x-amz-content-sha256 is not a valid value.")
    if not hmac.compare_digest(hashlib.sha256(body).hexdigest(), payload_hash):
        raise S3Error(
            400,
            "XAmzContentSHA256Mismatch",
            "The provided 'x-amz-content-sha256' header does not match what was computed.",
        )


def check_content_md5(environ: dict[str, Any], body: bytes) -> None:
    """A ``Content-MD5`` header, when sent, must be the base64 MD5 of the body: ``InvalidDigest``
    when it is no MD5, ``BadDigest`` when it is another body's. An ``aws-chunked`` body's digest
    is of its decoded content, which the store decodes: it is not checked here."""
    claimed = str(environ.get("HTTP_CONTENT_MD5", "")).strip()
    if not claimed or "aws-chunked" in str(environ.get("HTTP_CONTENT_ENCODING", "")).lower():
        return
    try:
        digest = base64.b64decode(claimed, validate=True)
    except ValueError:
        digest = b""
    if len(digest) != 16:
        raise S3Error(400, "InvalidDigest", "The Content-MD5 you specified was invalid.")
    calculated = hashlib.md5(body, usedforsecurity=False).digest()
    if not hmac.compare_digest(calculated, digest):
        raise S3Error(
            400,
            "BadDigest",
            "The Content-MD5 you specified did not match what we received.",
            extra={
                "ExpectedDigest": claimed,
                "CalculatedDigest": base64.b64encode(calculated).decode("ascii"),
            },
        )
