"""The emulator's clock: emulated time that runs at a scale of real time and can be advanced.

Every time-dependent behaviour of the emulator (provisioning delays, webhook retries, delivery
timeouts) reads this clock, never the wall clock, so that tests move time instead of sleeping.
"""

from __future__ import annotations

import math
import threading
import time
from datetime import datetime, timedelta, timezone

#: The time scales a clock accepts: from a thousandth of real time to ten thousand times it.
MIN_TIME_SCALE = 0.001
MAX_TIME_SCALE = 10_000.0
#: The most one advance may add: ten years of emulated seconds.
MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600.0
#: How far advances may take the clock from its start in all: a thousand years.
MAX_ADVANCED_SECONDS = 100 * MAX_ADVANCE_SECONDS


def check_time_scale(value: float) -> float:
    """``value`` as a float; ``ValueError`` unless finite and within the accepted scales."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("time_scale must be a number")
    scale = float(value)
    if not (math.isfinite(scale) and MIN_TIME_SCALE <= scale <= MAX_TIME_SCALE):
        raise ValueError(f"time_scale must be from {MIN_TIME_SCALE:g} to {MAX_TIME_SCALE:g}")
    return scale


def check_advance(value: float) -> float:
    """``value`` as a float; ``ValueError`` unless finite, not negative and at most ten years."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("advance_seconds must be a number")
    seconds = float(value)
    if not (math.isfinite(seconds) and 0 <= seconds <= MAX_ADVANCE_SECONDS):
        raise ValueError(f"advance_seconds must be from 0 to {MAX_ADVANCE_SECONDS:.0f}")
    return seconds


class Clock:
    """Emulated time.

    ``monotonic()`` is emulated seconds since the clock was made; it advances ``time_scale``
    emulated seconds per real second, plus whatever ``advance()`` adds. ``now()`` is the matching
    UTC wall time. Threads waiting in ``sleep_until()`` wake as soon as an advance reaches them.
    """

    def __init__(self, time_scale: float = 1.0, start: datetime | None = None) -> None:
        self._cond = threading.Condition()
        self._start = start or datetime.now(timezone.utc)
        self._scale = check_time_scale(time_scale)
        self._real_anchor = time.monotonic()
        self._emulated_anchor = 0.0
        self._initial_scale = self._scale

    def restart(self) -> None:
        """Back to how the clock began: the current real time, no advance, the first scale."""
        with self._cond:
            self._start = datetime.now(timezone.utc)
            self._scale = self._initial_scale
            self._real_anchor = time.monotonic()
            self._emulated_anchor = 0.0
            self._cond.notify_all()

    def saved(self) -> dict[str, object]:
        """What ``restore`` needs to continue this clock in another process."""
        with self._cond:
            self._rebase()
            return {
                "start": self._start.isoformat(),
                "elapsed": self._emulated_anchor,
                "time_scale": self._scale,
                "saved_at": time.time(),
            }

    def restore(self, saved: dict[str, object]) -> None:
        """Continue a saved clock: emulated time went on while the emulator was stopped, at
        the scale it had."""
        start = datetime.fromisoformat(str(saved["start"]))
        elapsed = float(saved["elapsed"])  # type: ignore[arg-type]
        scale = check_time_scale(float(saved["time_scale"]))  # type: ignore[arg-type]
        stopped = max(time.time() - float(saved["saved_at"]), 0.0)  # type: ignore[arg-type]
        with self._cond:
            self._start = start
            self._scale = scale
            self._real_anchor = time.monotonic()
            self._emulated_anchor = elapsed + stopped * scale
            self._cond.notify_all()

    @property
    def time_scale(self) -> float:
        return self._scale

    @time_scale.setter
    def time_scale(self, value: float) -> None:
        scale = check_time_scale(value)
        with self._cond:
            self._rebase()
            self._scale = scale
            self._cond.notify_all()

    def _rebase(self) -> None:
        real = time.monotonic()
        self._emulated_anchor += (real - self._real_anchor) * self._scale
        self._real_anchor = real

    def monotonic(self) -> float:
        """Emulated seconds since the clock started."""
        with self._cond:
            return self._emulated_anchor + (time.monotonic() - self._real_anchor) * self._scale

    def now(self) -> datetime:
        """The emulated current time, UTC."""
        return self._start + timedelta(seconds=self.monotonic())

    def advance(self, seconds: float) -> None:
        """Move emulated time forward at once and wake every sleeper."""
        seconds = check_advance(seconds)
        with self._cond:
            if self._emulated_anchor + seconds > MAX_ADVANCED_SECONDS:
                raise ValueError("the clock cannot be advanced a thousand years past its start")
            self._emulated_anchor += seconds
            self._cond.notify_all()

    def real_seconds(self, emulated_seconds: float) -> float:
        """How long ``emulated_seconds`` take in real time at the current scale."""
        return emulated_seconds / self._scale

    def sleep_until(self, deadline: float, stop: threading.Event | None = None) -> bool:
        """Block until ``monotonic() >= deadline``; False when ``stop`` was set first."""
        with self._cond:
            while True:
                if stop is not None and stop.is_set():
                    return False
                now = self._emulated_anchor + (time.monotonic() - self._real_anchor) * self._scale
                if now >= deadline:
                    return True
                self._cond.wait(timeout=min((deadline - now) / self._scale, 0.5))

    def wake(self) -> None:
        """Wake every sleeper so it re-checks its deadline and stop flag."""
        with self._cond:
            self._cond.notify_all()
