"""The one module that speaks HTTP: address, authentication, timeouts, retries, decoding."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

import httpx
from httpx import BaseTransport, Timeout

from altostratus._version import __version__
from altostratus.client._settings import Settings
from altostratus.client.errors import (
    AltostratusError,
    APIConnectionError,
    APITimeoutError,
    InvalidResponseError,
    OutcomeUnknownError,
    RateLimitError,
    error_from_response,
    parse_retry_after,
)

__all__ = ["DEFAULT_TIMEOUT", "BaseTransport", "HTTPClient", "Timeout"]

CONNECT_TIMEOUT = 5.0
DEFAULT_TIMEOUT = Timeout(30.0, connect=CONNECT_TIMEOUT)
IDEMPOTENT_METHODS = frozenset({"GET", "PUT", "PATCH", "DELETE"})
RETRY_STATUSES = frozenset({429, 502, 503, 504})
INITIAL_RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 8.0

# No byte of the request reached the server: even a POST can be sent again.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# The request may have reached the server, but no (complete) answer came back.
_NO_ANSWER = (httpx.NetworkError, httpx.TimeoutException, httpx.RemoteProtocolError)

# Many threads share one client (a provider process serves up to 64 calls at once): each keeps
# its connection between calls, rather than httpx's default of 20 kept.
LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=100)

_log = logging.getLogger("altostratus.client")


class _Retryable(Exception):
    def __init__(self, error: AltostratusError, retry_after: float | None = None) -> None:
        self.error = error
        self.retry_after = retry_after


class HTTPClient:
    """Sends one API call, retrying it where that is safe.

    Retry policy:
    - GET, PUT, PATCH and DELETE are retried on 429, 502, 503 and 504 answers, connection errors
      and timeouts. A 500 is not retried.
    - POST is retried only when it surely did not reach the server: the connection could not be
      made, or the answer was 429. When it may have reached the server (a timeout or a dropped
      connection after sending, or a 5xx answer), `OutcomeUnknownError` is raised instead.
    - The delay doubles from 0.5 s up to 8 s, less up to 25 % jitter; a `Retry-After` header (in
      seconds) replaces it, plus up to 25 % jitter, so that calls limited together do not come
      back together. At most `max_retries` retries, and none that would end later than
      `max_retry_seconds` after the first attempt started.
    - A 429 (the service did not take the call, and says when to come back) does not count
      against `max_retries`: many calls at once under a rate limit all go through in the end,
      each within `max_retry_seconds`. `max_retries=0` still retries nothing.

    `sleep`, `monotonic` and `random` are attributes so that tests can replace them. One instance
    may be shared by any number of threads: up to 100 requests at once, each connection kept
    for the next request (``LIMITS``).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        timeout: float | Timeout | None = None,
        max_retries: int = 4,
        max_retry_seconds: float = 60.0,
        transport: BaseTransport | None = None,
    ) -> None:
        self.max_retries = max_retries
        self.max_retry_seconds = max_retry_seconds
        self.sleep: Callable[[float], None] = time.sleep
        self.monotonic: Callable[[], float] = time.monotonic
        self.random: Callable[[], float] = random.random
        self._base_url = settings.api_url
        self._client = httpx.Client(
            base_url=settings.api_url,
            headers={
                "Authorization": f"bearer {settings.api_key}",
                "User-Agent": f"altostratus/{__version__}",
                "Accept": "application/json",
            },
            timeout=_timeout(timeout),
            limits=LIMITS,
            transport=transport,
        )

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str | int] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> Any:
        """Send a call and return its decoded JSON answer (None for an empty body)."""
        started = self.monotonic()
        retry = counted = 0
        while True:
            try:
                return self._send(method, path, params, body)
            except _Retryable as failure:
                error = failure.error
                delay = failure.retry_after
                if delay is None:
                    delay = min(MAX_RETRY_DELAY, INITIAL_RETRY_DELAY * 2**retry)
                    delay *= 1 - 0.25 * self.random()
                else:
                    delay *= 1 + 0.25 * self.random()
                elapsed = self.monotonic() - started
                limited = isinstance(error, RateLimitError) and self.max_retries > 0
                spent = counted >= self.max_retries and not limited
                if spent or elapsed + delay > self.max_retry_seconds:
                    raise error from error.__cause__
                _log.debug("retrying %s %s in %.2f s after: %s", method, path, delay, error)
                self.sleep(delay)
                retry += 1
                counted += 0 if limited else 1

    def close(self) -> None:
        self._client.close()

    def _send(
        self,
        method: str,
        path: str,
        params: Mapping[str, str | int] | None,
        body: Mapping[str, Any] | None,
    ) -> Any:
        idempotent = method in IDEMPOTENT_METHODS
        try:
            response = self._client.request(method, path, params=params, json=body)
        except httpx.TransportError as exc:
            raise self._transport_failure(exc, method, path, idempotent) from exc
        status = response.status_code
        if response.is_success:
            return _decode(response, method, path)
        error = error_from_response(response, method=method, path=path)
        if status in RETRY_STATUSES and (idempotent or status == 429):
            raise _Retryable(error, parse_retry_after(response.headers.get("retry-after")))
        if not idempotent and status >= 500:
            raise OutcomeUnknownError(method=method, path=path, cause=error) from error
        raise error

    def _transport_failure(
        self, exc: httpx.TransportError, method: str, path: str, idempotent: bool
    ) -> Exception:
        if isinstance(exc, httpx.TimeoutException):
            error: APIConnectionError = APITimeoutError(
                f"no answer from {self._base_url} in time ({type(exc).__name__})",
                method=method,
                path=path,
            )
        else:
            error = APIConnectionError(
                f"cannot reach {self._base_url} ({type(exc).__name__}: {exc})",
                method=method,
                path=path,
            )
        error.__cause__ = exc
        if isinstance(exc, _NOT_SENT) or (idempotent and isinstance(exc, _NO_ANSWER)):
            return _Retryable(error)
        if isinstance(exc, _NO_ANSWER):
            unknown = OutcomeUnknownError(method=method, path=path, cause=error)
            unknown.__cause__ = exc
            return unknown
        return error


def _timeout(value: float | Timeout | None) -> Timeout:
    if value is None:
        return DEFAULT_TIMEOUT
    if isinstance(value, Timeout):
        return value
    return Timeout(value, connect=min(value, CONNECT_TIMEOUT))


def _decode(response: httpx.Response, method: str, path: str) -> Any:
    if not response.content.strip():
        return None
    try:
        return response.json()
    except ValueError as exc:
        reason = "the answer is not JSON"
        status = response.status_code
        raise InvalidResponseError(
            status, "invalid_json", reason, method=method, path=path
        ) from exc
