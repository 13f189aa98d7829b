"""Settings of the provider process.

The engine configures each dynamic provider once per process with the whole stack config. The
settings live here, at process level, and never on a provider instance: the instance is pickled
into every resource's state and must hold neither a credential nor a client.

Keys read: ``altostratus:apiKey``, ``altostratus:apiUrl``, ``altostratus:region``,
``altostratus:requestDeadlineSeconds`` and ``altostratus:maxAnswerBytes`` (each with the client's
fallbacks: environment, the service CLI's files, defaults) and ``altostratus:waitTimeoutSeconds``
(default 600), the bound of every readiness or removal wait and of the retries of one call, and
``altostratus:requestTimeoutSeconds``, how long one request may wait for its whole answer (the
client's default: 30 s to read, 5 s to connect), and ``altostratus:providerThreads``, how many
calls the provider process serves at once (see ``_threads``).
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any

from altostratus.client._settings import DEFAULT_MAX_RETRY_SECONDS, resolve_settings
from altostratus.providers import _progress

if TYPE_CHECKING:
    from altostratus.client import Client

CONFIG_KEYS = (
    "altostratus:apiKey",
    "altostratus:apiUrl",
    "altostratus:region",
    "altostratus:requestDeadlineSeconds",
    "altostratus:maxAnswerBytes",
    "altostratus:waitTimeoutSeconds",
    "altostratus:requestTimeoutSeconds",
    "altostratus:providerThreads",
    "altostratus:debug",
)
DEBUG_ENV = "ALTOSTRATUS_DEBUG"
"""The environment variable that, like ``altostratus:debug``, keeps failures' tracebacks."""
DEFAULT_WAIT_TIMEOUT = 600.0
#: Calls served at once by default: enough for every balancer and store of a large stack to wait
#: at the same time, below httpx's 100 connections per client (no call waits for a connection),
#: and a thread costs nothing until a call needs one.
DEFAULT_PROVIDER_THREADS = 64
#: The Pulumi SDK's own bound, and the least accepted (its threads may already be running).
SDK_PROVIDER_THREADS = 4

_lock = threading.Lock()
_stack_config: dict[str, str] = {}
_client: Client | None = None


def settings_of(config: Any) -> dict[str, str]:
    """The keys read from a stack config (any object with ``get(key)``), the unset ones left out."""
    values: dict[str, str] = {}
    for key in CONFIG_KEYS:
        value = config.get(key)
        if value is not None and value != "":
            values[key] = str(value)
    return values


def new_client(stack_config: dict[str, str]) -> Client:
    """A client of the given stack config and its fallbacks, as the providers make theirs."""
    # Imported here: a Pulumi program loads the providers but never calls the API, so it does
    # not pay for httpx and the client's models.
    from altostratus.client._client import Client

    timeout = _seconds("altostratus:requestTimeoutSeconds", stack_config)
    wait = _seconds("altostratus:waitTimeoutSeconds", stack_config) or DEFAULT_WAIT_TIMEOUT
    # No call retries for longer than the provider would wait for anything.
    retries = min(DEFAULT_MAX_RETRY_SECONDS, wait)
    return Client(
        stack_config=dict(stack_config),
        timeout=timeout,
        max_retry_seconds=retries,
        on_retry=_progress.say,
    )


def region_of(stack_config: dict[str, str]) -> str:
    """The region of a stack config and its fallbacks, as the API names it."""
    return resolve_settings(stack_config=stack_config, require_key=False).region


def configure(config: Any) -> None:
    """Store the stack config (any object with ``get(key)``); a change drops the cached client."""
    global _client, _stack_config
    values = settings_of(config)
    with _lock:
        if values != _stack_config:
            _stack_config = values
            _client = None


def current() -> dict[str, str]:
    """The stored stack config (the keys set)."""
    with _lock:
        return dict(_stack_config)


def client() -> Client:
    """The process's client, built on first use from the stack config and its fallbacks."""
    global _client
    with _lock:
        if _client is None:
            _client = new_client(_stack_config)
        return _client


def region() -> str:
    """The configured region, as the API names it: the default of resources that give none."""
    with _lock:
        stack_config = dict(_stack_config)
    return region_of(stack_config)


def wait_timeout() -> float:
    """Seconds a create may wait for readiness, or a delete for its resource to be free and gone
    (``altostratus:waitTimeoutSeconds``)."""
    with _lock:
        seconds = _seconds("altostratus:waitTimeoutSeconds", _stack_config)
    return DEFAULT_WAIT_TIMEOUT if seconds is None else seconds


def provider_threads() -> int:
    """Calls the provider process serves at once (``altostratus:providerThreads``)."""
    with _lock:
        raw = _stack_config.get("altostratus:providerThreads")
    if raw is None:
        return DEFAULT_PROVIDER_THREADS
    try:
        threads = int(raw)
    except ValueError:
        threads = 0
    if threads < SDK_PROVIDER_THREADS:
        raise ValueError(
            f"altostratus:providerThreads must be a whole number from {SDK_PROVIDER_THREADS} up, "
            f"not {raw!r}"
        )
    return threads


def debug() -> bool:
    """Whether a failing call sends its whole traceback (``altostratus:debug``, else the
    ``ALTOSTRATUS_DEBUG`` environment variable; true, 1, yes or on)."""
    with _lock:
        raw = _stack_config.get("altostratus:debug")
    if raw is None:
        raw = os.environ.get(DEBUG_ENV, "")
    return raw.strip().lower() in ("1", "true", "yes", "on")


def _seconds(key: str, stack_config: dict[str, str]) -> float | None:
    """A positive number of seconds from the stack config; None when unset."""
    raw = stack_config.get(key)
    if raw is None:
        return None
    try:
        seconds = float(raw)
    except ValueError:
        raise ValueError(f"{key} must be a number of seconds, not {raw!r}") from None
    if seconds <= 0:
        raise ValueError(f"{key} must be positive")
    return seconds
