"""The bounds on what a request may carry, each answered with a 4xx in the error format.

A body is read only up to ``MAX_BODY_BYTES`` (413 past it, whatever the Content-Length claims
or a chunked body turns out to hold); a body that cannot be read (a malformed chunk, a body
shorter than announced) is a 400. A JSON body is refused (400) when it nests deeper than
``MAX_DEPTH``, holds an array or object of more than ``MAX_ITEMS`` entries, an integer of more
than ``MAX_INTEGER_DIGITS`` digits, a string longer than ``MAX_TEXT`` characters, or NaN and the
infinities (which JSON does not have). Text parameters are refused when they hold control
characters or lone surrogates, and names and labels past ``MAX_NAME`` characters (see
``Params.text``).

A whole state (``PUT /_emulator/state``) is a larger body by nature: it is read up to
``MAX_STATE_BYTES``, and only its depth, integers and numbers are bounded (an export holds as
many records, and objects as long, as the state it was written from).
"""

from __future__ import annotations

import io
import json
from typing import Any

from altostratus.emulator import peers
from altostratus.emulator.errors import BadRequest, PayloadTooLarge, invalid

MAX_BODY_BYTES = 1024 * 1024
MAX_STATE_BYTES = 256 * 1024 * 1024
MAX_DEPTH = 16
MAX_ITEMS = 1000
MAX_INTEGER_DIGITS = 20
MAX_TEXT = 16 * 1024
MAX_NAME = 255
#: Parameters whose text is a name: shorter than other text.
NAME_FIELDS = frozenset({"name", "label", "description"})


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


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ValueError(f"an integer of more than {MAX_INTEGER_DIGITS} digits")
    return int(text)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(data: bytes, *, whole_state: bool = False) -> Any:
    """``data`` as JSON within the bounds above (those of a whole state when ``whole_state``);
    ``BadRequest`` naming what is wrong."""
    try:
        value = json.loads(data, parse_int=_integer, parse_constant=_constant)
    except RecursionError:
        raise BadRequest(
            f"The body nests deeper than {MAX_DEPTH} levels", "parameter_body_invalid"
        ) from None
    except ValueError as error:
        reason = str(error).split(":")[0] if "integer" in str(error) else "not valid JSON"
        raise BadRequest(f"The body is {reason}", "parameter_body_invalid") from None
    check_shape(value, sized=not whole_state)
    return value


def check_shape(
    value: Any, field: str | None = None, depth: int = 0, *, sized: bool = True
) -> None:
    """400 naming the top-level field when ``value`` passes a bound on depth, or (when
    ``sized``) on size or text."""
    if depth > MAX_DEPTH:
        raise _refused(field, f"nests deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        if sized and len(value) > MAX_TEXT:
            raise _refused(field, f"holds text longer than {MAX_TEXT} characters")
    elif isinstance(value, (list, dict)):
        if sized and len(value) > MAX_ITEMS:
            raise _refused(field, f"holds more than {MAX_ITEMS} entries")
        items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
        for key, item in items:
            if key is not None:
                check_shape(key, field, depth + 1, sized=sized)
            at = field if field is not None or depth else key
            check_shape(item, at, depth + 1, sized=sized)


def _refused(field: str | None, problem: str) -> BadRequest:
    if field is None:
        return BadRequest(f"The body {problem}", "parameter_body_invalid")
    return invalid(field, f"The parameter {field} {problem}")


def check_text(name: str, value: str) -> None:
    """400 when a text parameter holds control characters, or a name is too long."""
    if any(ch < " " or "\x7f" <= ch <= "\x9f" or ch in "\u2028\u2029" for ch in value):
        raise invalid(name, f"The parameter {name} must not hold control characters")
    if any("\ud800" <= ch <= "\udfff" for ch in value):  # no UTF-8 can carry one
        raise invalid(name, f"The parameter {name} must not hold lone surrogates")
    limit = MAX_NAME if name in NAME_FIELDS else MAX_TEXT
    if len(value) > limit:
        raise invalid(name, f"The parameter {name} must be at most {limit} characters")
