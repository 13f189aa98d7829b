"""Bodies sent as ``aws-chunked`` with a signature per chunk (STREAMING-AWS4-HMAC-SHA256-PAYLOAD).

Each chunk is ``<hex size>;chunk-signature=<sig>\\r\\n<data>\\r\\n``; the last has size 0. Every
chunk's signature chains from the previous one, starting at the request's own signature. The body
is checked here and handed on still encoded: moto decodes it itself.
"""

from __future__ import annotations

import hashlib
import hmac

from altostratus.emulator.s3.errors import S3Error
from altostratus.emulator.s3.sigv4 import EMPTY_SHA256, Signature, sign

STREAMING_SIGNED = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"
STREAMING_SIGNED_TRAILER = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"
STREAMING_UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER"
STREAMING = (STREAMING_SIGNED, STREAMING_SIGNED_TRAILER, STREAMING_UNSIGNED_TRAILER)


def _bad_chunk(message: str) -> S3Error:
    return S3Error(403, "SignatureDoesNotMatch", f"The chunked upload is invalid: {message}.")


def verify_chunks(body: bytes, signature: Signature, key: bytes) -> int:
    """Check every chunk signature; answer the decoded length."""
    previous = signature.signature
    position = 0
    decoded = 0
    while True:
        end = body.find(b"\r\n", position)
        if end < 0:
            raise _bad_chunk("a chunk header is not terminated")
        size_text, _, params = body[position:end].decode("latin-1").partition(";")
        name, _, claimed = params.partition("=")
        try:
            size = int(size_text, 16)
        except ValueError:
            raise _bad_chunk("a chunk size is not hexadecimal") from None
        if name != "chunk-signature":
            raise _bad_chunk("a chunk carries no chunk-signature")
        data = body[end + 2 : end + 2 + size]
        if len(data) != size:
            raise _bad_chunk("a chunk is shorter than its size")
        to_sign = "\n".join(
            [
                "AWS4-HMAC-SHA256-PAYLOAD",
                signature.amz_date,
                signature.scope,
                previous,
                EMPTY_SHA256,
                hashlib.sha256(data).hexdigest(),
            ]
        )
        if not hmac.compare_digest(sign(key, to_sign).encode(), claimed.encode("latin-1")):
            raise _bad_chunk("a chunk signature does not match")
        previous = claimed
        decoded += size
        position = end + 2 + size + 2
        if size == 0:
            return decoded


def decoded_length(body: bytes, signed: bool) -> int:
    """The bytes an ``aws-chunked`` body holds once decoded, read from its chunk sizes (each
    chunk checked to be as long as it says); a signed body's chunks carry ``;chunk-signature=``,
    an unsigned one's only their size. Trailers after the last chunk are not counted."""
    position = 0
    decoded = 0
    while True:
        end = body.find(b"\r\n", position)
        if end < 0:
            raise _incomplete("a chunk header is not terminated")
        size_text, semicolon, params = body[position:end].decode("latin-1").partition(";")
        if signed != bool(semicolon) or (signed and not params.startswith("chunk-signature=")):
            raise _incomplete("a chunk header is malformed")
        if not size_text or any(ch not in "0123456789abcdefABCDEF" for ch in size_text):
            raise _incomplete("a chunk size is not hexadecimal")
        size = int(size_text, 16)
        start = end + 2
        if size == 0:
            return decoded
        if body[start + size : start + size + 2] != b"\r\n":
            raise _incomplete("a chunk is shorter than its size")
        decoded += size
        position = start + size + 2


def _incomplete(message: str) -> S3Error:
    return S3Error(400, "IncompleteBody", f"The chunked upload is malformed: {message}.")
