"""The one module that speaks HTTP: address, authentication, timeouts and deadlines, retries,
reading and decoding answers."""

from __future__ import annotations

import functools
import json
import logging
import random
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from httpx import BaseTransport, Timeout

from altostratus._version import package_version
from altostratus.client._deadline import bound_client, deadline_at
from altostratus.client._settings import Settings
from altostratus.client.errors import (
    AltostratusError,
    APIConnectionError,
    APITimeoutError,
    ConfigurationError,
    InvalidResponseError,
    OutcomeUnknownError,
    RateLimitError,
    clean_text,
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
#: The least wait before a retry, whatever `Retry-After` says: 0 (or a date in the past) would
#: send the call again at once, thousands of times a minute.
MIN_RETRY_DELAY = 0.5

# No byte of the request reached the server: even a POST can be sent again.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# The request may have reached the server, but no (complete) answer came back.
_NO_ANSWER = (httpx.NetworkError, httpx.TimeoutException, httpx.RemoteProtocolError)

# Many threads share one client (a provider process serves up to 64 calls at once): each keeps
# its connection between calls, rather than httpx's default of 20 kept.
LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=100)


@functools.cache
def shared_tls() -> ssl.SSLContext:
    """The TLS settings of every client of the process that speaks TLS: httpx's defaults
    (certifi's roots, or those ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` name when the first such
    client is made), loaded once. httpx loads them again for each client otherwise, about 16 to
    20 ms a client."""
    return httpx.create_ssl_context(verify=True, trust_env=True)


@functools.cache
def _trusting_nothing() -> ssl.SSLContext:
    """TLS settings that verify every server and trust none: a client of an ``http://`` API
    (the emulator) never starts TLS, as its calls stay on that URL, so it is spared the roots'
    load; were it ever asked to, it would refuse the server rather than trust it unchecked."""
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def _speaks_tls(url: str) -> bool:
    return url.lower().startswith("https:")


def tls_for(url: str) -> ssl.SSLContext:
    """The TLS settings of a client whose calls go to ``url``."""
    return shared_tls() if _speaks_tls(url) else _trusting_nothing()


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
      seconds, or an HTTP date) replaces it, but is never taken as less than 0.5 s
      (``MIN_RETRY_DELAY``), plus up to 25 % jitter, so that calls limited together do not come
      back together. At most `max_retries` retries, and none that would end later than
      `max_retry_seconds` after the first attempt started, or past the call's deadline.
    - A 429 (the service did not take the call, and says when to come back) does not count
      against `max_retries`: many calls at once under a rate limit all go through in the end,
      each within `max_retry_seconds`. `max_retries=0` still retries nothing.

    Bounds of one call, whatever the server's pace:
    - the whole call, retries and their waits included, ends by the settings' `deadline`;
    - each attempt has its whole answer within the read timeout of `timeout` (httpx alone bounds
      only each wait for the next bytes, so a server dripping bytes could hold a call for ever);
      an attempt stopped by either bound fails as a timeout: `APITimeoutError`, or for a POST
      that was sent, `OutcomeUnknownError`;
    - an answer is read only up to the settings' `max_answer_bytes`: a larger one is not read on,
      and is an `InvalidResponseError` (``answer_too_large``) naming its size.

    `on_retry`, when given, is called with one line before each retry, on the calling thread
    (``retrying POST /v2/vpc/networks in 1.1 s after 429 rate_limited: ...``); the same line is
    logged at debug level on the ``altostratus.client`` logger either way.

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
        on_retry: Callable[[str], None] | None = None,
    ) -> None:
        self.max_retries = max_retries
        self.on_retry = on_retry
        self.max_retry_seconds = max_retry_seconds
        self.deadline = settings.deadline
        self.max_answer_bytes = settings.max_answer_bytes
        self.sleep: Callable[[float], None] = time.sleep
        self.monotonic: Callable[[], float] = time.monotonic
        self.random: Callable[[], float] = random.random
        self._base_url = settings.api_url
        self._timeout = _timeout(timeout)
        self._transport = transport
        self._verified: httpx.Client | None = None
        self._verified_lock = threading.Lock()
        try:
            self._client = httpx.Client(
                base_url=settings.api_url,
                headers={
                    # No key (a client made to log in, see `Client`): no Authorization at all.
                    **({"Authorization": f"bearer {settings.api_key}"} if settings.api_key else {}),
                    "User-Agent": f"altostratus/{package_version()}",
                    "Accept": "application/json",
                },
                timeout=self._timeout,
                limits=LIMITS,
                transport=transport,
                verify=tls_for(settings.api_url),
            )
        except httpx.InvalidURL as exc:  # one `base_url` lets pass but httpx cannot take
            raise ConfigurationError(
                clean_text(f"the API URL {settings.api_url!r} cannot be used ({exc})")
            ) from None
        bound_client(self._client)

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str | int] | None = None,
        body: Mapping[str, Any] | None = None,
        ends: float | None = None,
    ) -> Any:
        """Send a call and return its decoded JSON answer (None for an empty body). With
        ``ends`` (on the ``monotonic`` clock), the call ends by then too: the deadline of a walk
        of several calls (a paged list's)."""
        started = self.monotonic()
        ends = started + self.deadline if ends is None else min(ends, started + self.deadline)
        retry = counted = 0
        while True:
            try:
                return self._send(method, path, params, body, ends - self.monotonic())
            except _Retryable as failure:
                error = failure.error
                delay = self._delay(failure.retry_after, retry)
                now = self.monotonic()
                limited = isinstance(error, RateLimitError) and self.max_retries > 0
                spent = counted >= self.max_retries and not limited
                late = now - started + delay > self.max_retry_seconds or now + delay >= ends
                if spent or late:
                    raise error from error.__cause__
                line = f"retrying {method} {path} in {delay:.1f} s after {error}"
                _log.debug("%s", line)
                if self.on_retry is not None:
                    self.on_retry(line)
                self.sleep(delay)
                retry += 1
                counted += 0 if limited else 1

    def get_elsewhere(self, url: str, headers: Mapping[str, str]) -> tuple[int, bytes]:
        """One GET of an absolute ``url`` that is not the API's (a store's S3 endpoint), with
        only ``headers`` (never the API key): its status and body, read within the deadline and
        ``max_answer_bytes``. Not retried; a transport failure is an ``APIConnectionError``."""
        ends_at = time.monotonic() + self.deadline
        sent = {"User-Agent": f"altostratus/{package_version()}", **headers}
        request = httpx.Request("GET", url, headers=sent)
        request.extensions["timeout"] = _capped(self._timeout, self.deadline).as_dict()
        try:
            with deadline_at(ends_at):
                response = self._client_for(url).send(request, stream=True)
                try:
                    answer = self._read(response, "GET", url, ends_at)
                finally:
                    response.close()
        except httpx.TransportError as exc:
            error = APIConnectionError(
                f"cannot reach {url} ({type(exc).__name__}: {exc})", method="GET", path=url
            )
            raise error from exc
        return answer.status_code, answer.content

    def _client_for(self, url: str) -> httpx.Client:
        """The client that reaches ``url``: the API's, unless ``url`` speaks TLS where the API
        does not; then a client with the certificate roots, made on first use."""
        if self._transport is not None or not _speaks_tls(url) or _speaks_tls(self._base_url):
            return self._client
        with self._verified_lock:
            if self._verified is None:
                self._verified = httpx.Client(
                    timeout=self._timeout, limits=LIMITS, verify=shared_tls()
                )
                bound_client(self._verified)
            return self._verified

    def close(self) -> None:
        self._client.close()
        if self._verified is not None:
            self._verified.close()

    def _delay(self, retry_after: float | None, retry: int) -> float:
        if retry_after is None:
            delay = min(MAX_RETRY_DELAY, INITIAL_RETRY_DELAY * 2.0**retry)
            return delay * (1 - 0.25 * self.random())
        return max(retry_after, MIN_RETRY_DELAY) * (1 + 0.25 * self.random())

    def _send(
        self,
        method: str,
        path: str,
        params: Mapping[str, str | int] | None,
        body: Mapping[str, Any] | None,
        left: float,
    ) -> Any:
        idempotent = method in IDEMPOTENT_METHODS
        read = self._timeout.read
        budget = max(left if read is None else min(left, read), 0.0)
        ends_at = time.monotonic() + budget
        request = self._client.build_request(
            method, path, params=params, json=body, timeout=_capped(self._timeout, budget)
        )
        try:
            with deadline_at(ends_at):
                response = self._client.send(request, stream=True)
                try:
                    answer = self._read(response, method, path, ends_at)
                finally:
                    response.close()
        except httpx.TransportError as exc:
            late = budget if time.monotonic() >= ends_at else None
            raise self._transport_failure(exc, method, path, idempotent, late) from exc
        status = answer.status_code
        if 200 <= status < 300:
            return _decode(answer, method, path)
        error = error_from_response(answer, method=method, path=path)
        if status in RETRY_STATUSES and (idempotent or status == 429):
            raise _Retryable(error, parse_retry_after(answer.headers.get("retry-after")))
        if not idempotent and status >= 500:
            raise OutcomeUnknownError(method=method, path=path, cause=error) from error
        raise error

    def _read(self, response: httpx.Response, method: str, path: str, ends_at: float) -> _Answer:
        """The answer's body, read up to ``max_answer_bytes`` (decompressed) and ``ends_at``."""
        status, limit = response.status_code, self.max_answer_bytes
        declared = response.headers.get("content-length", "").strip()
        if declared.isdigit() and int(declared) > limit:
            raise _too_large(status, int(declared), limit, method, path)
        chunks: list[bytes] = []
        size = 0
        try:
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > limit:
                    raise _too_large(status, None, limit, method, path)
                chunks.append(chunk)
                if time.monotonic() >= ends_at:  # a transport without sockets (see _deadline)
                    raise httpx.ReadTimeout("the request's deadline has passed")
        except httpx.DecodingError as exc:
            reason = f"the answer's body cannot be decoded ({exc})"
            raise InvalidResponseError(
                status, "invalid_encoding", reason, method=method, path=path
            ) from exc
        return _Answer(status, response.headers, b"".join(chunks))

    def _transport_failure(
        self,
        exc: httpx.TransportError,
        method: str,
        path: str,
        idempotent: bool,
        late: float | None = None,
    ) -> Exception:
        if late is not None:
            error: APIConnectionError = APITimeoutError(
                f"no complete answer from {self._base_url} in {late:g} s (the request's deadline)",
                method=method,
                path=path,
            )
        elif isinstance(exc, httpx.TimeoutException):
            error = APITimeoutError(
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


@dataclass(frozen=True)
class _Answer:
    """An answer read in full (what ``errors.error_from_response`` reads)."""

    status_code: int
    headers: httpx.Headers
    content: bytes


def _timeout(value: float | Timeout | None) -> Timeout:
    if value is None:
        return DEFAULT_TIMEOUT
    if isinstance(value, Timeout):
        return value
    return Timeout(value, connect=min(value, CONNECT_TIMEOUT))


def _capped(timeout: Timeout, budget: float) -> Timeout:
    """Each of the timeouts, at most ``budget`` seconds."""
    values = (timeout.connect, timeout.read, timeout.write, timeout.pool)
    connect, read, write, pool = (budget if v is None else min(v, budget) for v in values)
    return Timeout(connect=connect, read=read, write=write, pool=pool)


def _too_large(
    status: int, size: int | None, limit: int, method: str, path: str
) -> InvalidResponseError:
    """``size``: what the answer declared (Content-Length), None when it declared nothing."""
    what = "is more" if size is None else f"is {size} bytes, more"
    reason = f"the answer {what} than the {limit} bytes read (max_answer_bytes)"
    return InvalidResponseError(status, "answer_too_large", reason, method=method, path=path)


def _decode(answer: _Answer, method: str, path: str) -> Any:
    """The JSON of a success answer; None for an empty body. A body declared as something else
    than JSON (an HTML page from a proxy) or not parsing as JSON is an ``InvalidResponseError``."""
    if not answer.content.strip():
        return None
    media = answer.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media and "json" not in media and media != "text/plain":
        reason = f"the answer is {media}, not JSON"  # the error cleans what the server sent
        raise InvalidResponseError(
            answer.status_code, "invalid_json", reason, method=method, path=path
        )
    try:
        return json.loads(answer.content)
    except ValueError as exc:
        raise InvalidResponseError(
            answer.status_code, "invalid_json", "the answer is not JSON", method=method, path=path
        ) from exc
