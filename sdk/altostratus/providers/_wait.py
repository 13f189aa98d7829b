"""Waits: poll a resource until it is ready (or gone), or retry a call the service refuses for
now, bounded by the configured timeout.

Polls and retries come quickly at first (0.1, 0.2, 0.4 s), then every 0.5 s for the first ten
seconds, so a delay of a few seconds is noticed within half a second with a handful of requests;
after that the interval grows by half each time, up to 5 s, so a long wait costs few requests.
The wait sleeps in the calling worker thread; nothing else is held.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from itertools import chain
from typing import TypeVar

from altostratus.providers import _progress

T = TypeVar("T")

_QUICK = (0.1, 0.2, 0.4)
_STEADY_SECONDS = 10.0
_MAX_DELAY = 5.0


WAIT_LONGER = (
    "raise altostratus:waitTimeoutSeconds to wait longer (pulumi destroy and refresh use the "
    "configuration stored by the last pulumi up: run pulumi up after raising it, or pass "
    "--run-program)"
)
"""The hint of a wait that timed out; true of a create (the program's configuration) and of a
destroy (the stored one) alike."""


class WaitFailed(Exception):
    """A wait ended without what it waited for; the message is one line saying why."""


class ReadinessTimeout(WaitFailed):
    """The resource did not become ready in time."""


class ReadinessFailed(WaitFailed):
    """The resource reached a state from which it will not become ready."""


class StillRefused(WaitFailed):
    """The service kept refusing a call (a delete: the resource still in use) until the
    deadline."""


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
    at_once: bool = False,
    goal: str = "ready",
    now: str | None = None,
) -> T:
    """Fetch until ``ready(record)``; raise on a ``failed`` state or at the deadline.

    ``at_once``: the first fetch comes without a pause, even when no time is left (a check that
    usually succeeds costs one request). ``goal`` names what is waited for in the timeout's
    message and the progress line said once the wait begins; ``now`` is the state the caller
    last saw.
    """
    deadline = clock() + timeout
    last = "unknown" if now is None else now
    delays: Iterator[float] = chain([0.0], poll_delays()) if at_once else poll_delays()
    said = False
    for delay in delays:
        remaining = deadline - clock()
        if delay and remaining <= 0:
            break
        if delay and not said:
            state_now = "" if last == "unknown" else f" (now {last!r})"
            _progress.say(f"waiting up to {remaining:.0f} s for it to be {goal}{state_now}")
            said = True
        if delay:
            sleep(min(delay, remaining))
        record = fetch()
        last = state(record)
        if ready(record):
            return record
        if last in failed:
            raise ReadinessFailed(f"{what} reached state {last!r} and will not become {goal}")
    raise ReadinessTimeout(
        f"{what} was not {goal} after {timeout:g} s (last state {last!r}); {WAIT_LONGER}"
    )


def retry_while(
    attempt: Callable[[], T],
    refused: Callable[[Exception], bool],
    *,
    why: str,
    timeout: float,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    hopeless: Callable[[Exception, float], str | None] = lambda _error, _elapsed: None,
) -> T:
    """Call ``attempt`` until it returns; an error that ``refused`` accepts is retried at the
    poll delays, any other is raised at once. At the deadline, ``StillRefused`` says ``why``
    (``still in use``) with the last refusal's message. ``hopeless`` (given a refusal and the
    seconds waited so far) says why waiting on cannot help, ending the wait at once."""
    start = clock()
    deadline = start + timeout
    delays = poll_delays()
    said = False
    while True:
        try:
            return attempt()
        except Exception as error:
            if not refused(error):
                raise
            remaining = deadline - clock()
            if remaining <= 0:
                raise StillRefused(f"{why} after {timeout:g} s: {error}; {WAIT_LONGER}") from None
            because = hopeless(error, clock() - start)
            if because is not None:
                raise StillRefused(because) from None
            if not said:
                _progress.say(f"{why} ({error}); retrying for up to {remaining:.0f} s")
                said = True
            sleep(min(next(delays), remaining))
