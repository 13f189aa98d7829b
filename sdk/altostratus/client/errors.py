"""The client's exceptions, and the one table that turns an API answer into one of them.

```
AltostratusError
 ├── ConfigurationError            settings missing or unreadable (no API key, bad credentials file)
 ├── APIError                      an answer the call cannot take: status, code, reason; itself
 │    │                            for a failure status no class below names (405, 418, ...)
 │    ├── BadRequestError          400, 415, 422
 │    ├── AuthenticationError      401
 │    ├── PermissionDeniedError    403
 │    │    └── QuotaExceededError  403 with code quota_limit_reached
 │    ├── NotFoundError            404
 │    ├── ConflictError            409
 │    │    └── InUseError          409 with a code ending in _inuse: something still holds it
 │    ├── RateLimitError           429 (retry_after)
 │    ├── ServerError              5xx
 │    └── InvalidResponseError     a success it cannot read: not JSON, not its shape, too large
 ├── APIConnectionError            no answer: refused, reset, unreachable
 │    └── APITimeoutError          no answer in time, or not all of it before the deadline
 └── OutcomeUnknownError           a POST that may or may not have taken effect
```

Callers branch on the class (the status) first and on `code` second. `OutcomeUnknownError` is
raised instead of retrying a create blindly: the caller should look for the resource before
trying again, so that a lost answer never turns into a duplicate. A create answered with a success
that is not the record (not JSON, an HTML page, empty, the wrong shape) is such an outcome too.

Every message is one line of plain text: what the server sent is cleaned of terminal escape
sequences and control characters, and a password (or token) in a URL is masked (`clean_text`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from http import HTTPStatus
from typing import Protocol

__all__ = [
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AltostratusError",
    "AuthenticationError",
    "BadRequestError",
    "ConfigurationError",
    "ConflictError",
    "InUseError",
    "InvalidResponseError",
    "NotFoundError",
    "OutcomeUnknownError",
    "PermissionDeniedError",
    "QuotaExceededError",
    "RateLimitError",
    "ServerError",
    "clean_text",
    "error_from_response",
]

_MAX_REASON = 300
# Terminal escape sequences: CSI (colours, cursor moves), OSC (window titles), and two-byte ones.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]+")
# The user-information part of a URL: ``scheme://user:password@`` or ``scheme://token@``.
_URL_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<userinfo>[^/?#@\s]+)@")


def clean_text(text: str) -> str:
    """Text from outside made fit for a one-line message: escape sequences removed, control
    characters (line breaks included) turned into spaces, a URL's password masked (``user:***@``,
    or ``***@`` for a user part alone, often a token)."""
    text = _CONTROLS.sub(" ", _ESCAPES.sub("", text))
    return _URL_USERINFO.sub(_mask_userinfo, " ".join(text.split()))


def _mask_userinfo(match: re.Match[str]) -> str:
    user, colon, _ = match["userinfo"].partition(":")
    return f"{match['scheme']}{user}:***@" if colon else f"{match['scheme']}***@"


class AltostratusError(Exception):
    """Root of every exception the client raises."""


class ConfigurationError(AltostratusError):
    pass


class APIError(AltostratusError):
    """The API answered `status`; `code` is the API's own error code, `reason` its sentence."""

    def __init__(self, status: int, code: str, reason: str, *, method: str, path: str) -> None:
        self.status = status
        self.code = clean_text(code)
        self.reason = clean_text(reason)
        self.method = method
        self.path = path
        super().__init__(self._message())

    def _message(self) -> str:
        return f"{self.status} {self.code}: {self.reason} ({self.method} {self.path})"


class BadRequestError(APIError):
    pass


class AuthenticationError(APIError):
    def _message(self) -> str:
        return (
            f"{super()._message()}; check the API key setting (api_key argument, "
            "altostratus:apiKey stack config, ALTOSTRATUS_API_KEY or CLI_API_KEY)"
        )


class PermissionDeniedError(APIError):
    pass


class QuotaExceededError(PermissionDeniedError):
    pass


class NotFoundError(APIError):
    pass


class ConflictError(APIError):
    pass


class InUseError(ConflictError):
    """The resource is still held by others (``database_<kind>_inuse``); `reason` names them.
    Deleting it can succeed once they are gone."""


class RateLimitError(APIError):
    def __init__(
        self,
        status: int,
        code: str,
        reason: str,
        *,
        method: str,
        path: str,
        retry_after: float | None = None,
    ) -> None:
        self.retry_after = retry_after
        super().__init__(status, code, reason, method=method, path=path)


class ServerError(APIError):
    pass


class InvalidResponseError(APIError):
    """A success answer whose body is not what the call answers; `reason` says what was wrong
    where. Not JSON: `code` is ``invalid_json`` and `status` the answer's. JSON, but not the
    record's shape: `code` is ``invalid_response`` and `status` 200, the service's one success
    status (the collections that check the shape see the decoded body, not the status)."""


class APIConnectionError(AltostratusError):
    """No answer came back; `method` and `path` name the call, `__cause__` the transport error."""

    def __init__(self, message: str, *, method: str, path: str) -> None:
        self.method = method
        self.path = path
        super().__init__(clean_text(f"{message} ({method} {path})"))


class APITimeoutError(APIConnectionError):
    pass


class OutcomeUnknownError(AltostratusError):
    """A POST was sent but its outcome is unknown: no answer, a 5xx answer, or a success answer
    that is not the record (then `cause` is an `InvalidResponseError`).

    `cause` is the underlying error; `status`, `code` and `reason` are set when there was an answer.
    """

    def __init__(self, *, method: str, path: str, cause: AltostratusError) -> None:
        self.method = method
        self.path = path
        self.cause = cause
        self.status: int | None = cause.status if isinstance(cause, APIError) else None
        self.code: str | None = cause.code if isinstance(cause, APIError) else None
        self.reason: str | None = cause.reason if isinstance(cause, APIError) else None
        what = f"{self.status} {self.code}: {self.reason}" if self.status else str(cause)
        super().__init__(
            f"outcome unknown for {method} {path} ({what}); "
            "look for the resource before trying again"
        )


class _Response(Protocol):
    """The parts of an HTTP response the mapping reads (an httpx.Response has them)."""

    @property
    def status_code(self) -> int: ...
    @property
    def headers(self) -> Mapping[str, str]: ...
    @property
    def content(self) -> bytes: ...


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    415: BadRequestError,
    422: BadRequestError,
    429: RateLimitError,
}
_BY_CODE: dict[str, type[APIError]] = {"quota_limit_reached": QuotaExceededError}


def error_from_response(response: _Response, *, method: str, path: str) -> APIError:
    """The exception for a failed answer; a body that is not the API's JSON still maps by status."""
    status = response.status_code
    code, reason = _code_and_reason(response.content, status)
    cls = _BY_CODE.get(code) or _BY_STATUS.get(status)
    if cls is ConflictError and code.endswith("_inuse"):
        cls = InUseError
    if cls is None:
        cls = ServerError if status >= 500 else APIError
    if cls is RateLimitError:
        retry_after = parse_retry_after(response.headers.get("retry-after"))
        return RateLimitError(
            status, code, reason, method=method, path=path, retry_after=retry_after
        )
    return cls(status, code, reason, method=method, path=path)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header, given in seconds or as an HTTP date (RFC 9110 10.2.3);
    0 for a date in the past; None when absent or neither."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return _seconds_until(value)
    return max(seconds, 0.0) if seconds == seconds else None  # NaN is not a delay


def _seconds_until(date: str) -> float | None:
    from email.utils import parsedate_to_datetime  # rare: imported when a date is given

    try:
        when = parsedate_to_datetime(date.strip())
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max((when - datetime.now(timezone.utc)).total_seconds(), 0.0)


def _code_and_reason(content: bytes, status: int) -> tuple[str, str]:
    text = content.decode("utf-8", errors="replace")
    code = reason = ""
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    if isinstance(body, dict):
        code = str(body.get("code") or "")
        reason = str(body.get("reason") or body.get("message") or "")
    elif body is None:
        reason = next((line.strip() for line in text.splitlines() if line.strip()), "")
    reason = clean_text(reason) or _phrase(status)
    if len(reason) > _MAX_REASON:
        reason = reason[: _MAX_REASON - 1] + "…"
    return code or f"http_{status}", reason


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unexpected answer"
