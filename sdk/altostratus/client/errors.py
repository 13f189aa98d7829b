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
 │    └── InvalidResponseError     a success the call cannot read: not JSON, or not its shape
 ├── APIConnectionError            no answer: refused, reset, unreachable
 │    └── APITimeoutError          no answer in time
 └── OutcomeUnknownError           a POST that may or may not have taken effect
```

Callers branch on the class (the status) first and on `code` second. `OutcomeUnknownError` is
raised instead of retrying a create blindly: the caller should look for the resource before
trying again, so that a lost answer never turns into a duplicate.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
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
    "error_from_response",
]

_MAX_REASON = 300


class AltostratusError(Exception):
    """Root of every exception the client raises."""


class ConfigurationError(AltostratusError):
    pass


class APIError(AltostratusError):
    """The API answered `status`; `code` is the API's own error code, `reason` its sentence."""

    def __init__(self, status: int, code: str, reason: str, *, method: str, path: str) -> None:
        self.status = status
        self.code = code
        self.reason = reason
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
        super().__init__(f"{message} ({method} {path})")


class APITimeoutError(APIConnectionError):
    pass


class OutcomeUnknownError(AltostratusError):
    """A POST was sent but its outcome is unknown (no answer, or a 5xx answer).

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
    """Seconds from a Retry-After header; None when absent or not a number."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return max(seconds, 0.0) if seconds == seconds else None  # NaN is not a delay


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
    if not reason:
        reason = _phrase(status)
    reason = " ".join(reason.split())
    if len(reason) > _MAX_REASON:
        reason = reason[: _MAX_REASON - 1] + "…"
    return code or f"http_{status}", reason


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unexpected answer"
