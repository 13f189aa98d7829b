"""Readiness waits: poll a resource until it is ready, bounded by the configured timeout.

Polls come quickly at first (0.1, 0.2, 0.4 s), then every 0.5 s for the first ten seconds, so a
provisioning delay of a few seconds is noticed within half a second with a handful of requests;
after that the interval grows by half each time, up to 5 s, so a long wait costs few requests.
The wait sleeps in the calling worker thread; nothing else is held.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TypeVar

T = TypeVar("T")

_QUICK = (0.1, 0.2, 0.4)
_STEADY_SECONDS = 10.0
_MAX_DELAY = 5.0


class ReadinessTimeout(Exception):
    """The resource did not become ready in time."""


class ReadinessFailed(Exception):
    """The resource reached a state from which it will not become ready."""


def poll_delays() -> Iterator[float]:
    elapsed = 0.0
    for delay in _QUICK:
        elapsed += delay
        yield delay
    while elapsed < _STEADY_SECONDS:
        elapsed += 0.5
        yield 0.5
    delay = 0.5
    while True:
        delay = min(delay * 1.5, _MAX_DELAY)
        yield delay


def wait_until(
    fetch: Callable[[], T],
    state: Callable[[T], str],
    *,
    ready: Callable[[T], bool],
    failed: frozenset[str] = frozenset(),
    what: str,
    timeout: float,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """Fetch until ``ready(record)``; raise on a ``failed`` state or at the deadline."""
    deadline = clock() + timeout
    last = "unknown"
    for delay in poll_delays():
        remaining = deadline - clock()
        if remaining <= 0:
            break
        sleep(min(delay, remaining))
        record = fetch()
        last = state(record)
        if ready(record):
            return record
        if last in failed:
            raise ReadinessFailed(f"{what} reached state {last!r} and will not become ready")
    raise ReadinessTimeout(
        f"{what} was not ready after {timeout:g} s (last state {last!r}); raise "
        "altostratus:waitTimeoutSeconds to wait longer"
    )
