"""How much of a request's body is read, each bound answered with a 4xx in the error format.

A body is read only up to ``MAX_BODY_BYTES`` (413 past it, whatever the Content-Length claims
or a chunked body turns out to hold); a body that cannot be read (a malformed chunk, a body
shorter than announced) is a 400. A whole state (``PUT /_emulator/state``) is a larger body by
nature: it is read up to ``MAX_STATE_BYTES``. A body refused before it was needed is drained
only as far as a refusal allows (``peers.drain``). What the body may hold once read (its JSON's
depth and size, its text) is bounded where its values are read, in ``requests.params``.
"""

from __future__ import annotations

import io
from typing import Any

from altostratus.emulator.errors import BadRequest, PayloadTooLarge
from altostratus.emulator.serving import peers

MAX_BODY_BYTES = 1024 * 1024
MAX_STATE_BYTES = 256 * 1024 * 1024


_CHUNK = 64 * 1024
#: Set in the environ once the body is read whole (and buffered).
BODY_READ = "altostratus.body_read"
#: How much of a too-large body is read and dropped before the 413, so that a client still
#: sending it reads the answer instead of a reset connection; past it the connection is cut.
_DRAINED_BYTES = 8 * MAX_BODY_BYTES


def _drain(stream: Any, length: int | None) -> None:
    left = _DRAINED_BYTES if length is None else min(length, _DRAINED_BYTES)
    try:
        while left > 0:
            chunk = stream.read(min(_CHUNK, left))
            if not chunk:
                return
            left -= len(chunk)
    except Exception:  # the answer is a 413 either way
        return


def buffer_body(environ: dict[str, Any], limit: int = MAX_BODY_BYTES) -> None:
    """Read the request's body once, within ``limit`` bytes, and put it back as a buffer of
    known length, so that whatever reads it next reads it whole and cannot fail."""
    too_large = PayloadTooLarge(f"The body is larger than {limit} bytes")
    terminated = bool(environ.get("wsgi.input_terminated"))
    try:
        length = None if terminated else int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise BadRequest("Content-Length is not a number", "parameter_body_invalid") from None
    stream = environ["wsgi.input"]
    if length is not None and length > limit:
        _drain(stream, length)
        raise too_large
    chunks: list[bytes] = []
    size = 0
    try:
        while length is None or size < length:
            wanted = _CHUNK if length is None else min(_CHUNK, length - size)
            chunk = stream.read(wanted)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                _drain(stream, None if length is None else length - size)
                raise too_large
    except PayloadTooLarge:
        raise
    except Exception:  # the peer's bytes: a malformed chunk, a dropped connection
        raise BadRequest(
            "The body could not be read (malformed chunked encoding or a broken connection)",
            "parameter_body_invalid",
        ) from None
    if length is not None and size < length:
        raise BadRequest("The body ended before its Content-Length", "parameter_body_invalid")
    data = b"".join(chunks)
    environ[BODY_READ] = True
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))
    environ["wsgi.input_terminated"] = False
    environ.pop("HTTP_TRANSFER_ENCODING", None)


def drain_unread(environ: dict[str, Any]) -> bool:
    """Drop the body of a request answered without reading it (refused before its body was
    needed), within what a refusal allows (``peers.drain``); False when it could not be read
    whole, and the answer must close the connection."""
    if environ.get(BODY_READ):
        return True
    if environ.get("wsgi.input_terminated"):
        return False
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length == 0 or peers.drain(environ, environ["wsgi.input"], length, MAX_BODY_BYTES)
