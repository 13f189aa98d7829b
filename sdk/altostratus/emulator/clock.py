"""The emulator's clock: emulated time that runs at a scale of real time and can be advanced.

Every time-dependent behaviour of the emulator (provisioning delays, webhook retries, delivery
timeouts) reads this clock, never the wall clock, so that tests move time instead of sleeping.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone


class Clock:
    """Emulated time.

    ``monotonic()`` is emulated seconds since the clock was made; it advances ``time_scale``
    emulated seconds per real second, plus whatever ``advance()`` adds. ``now()`` is the matching
    UTC wall time. Threads waiting in ``sleep_until()`` wake as soon as an advance reaches them.
    """

    def __init__(self, time_scale: float = 1.0, start: datetime | None = None) -> None:
        if time_scale <= 0:
            raise ValueError("time_scale must be positive")
        self._cond = threading.Condition()
        self._start = start or datetime.now(timezone.utc)
        self._scale = float(time_scale)
        self._real_anchor = time.monotonic()
        self._emulated_anchor = 0.0

    @property
    def time_scale(self) -> float:
        return self._scale

    @time_scale.setter
    def time_scale(self, value: float) -> None:
        if value <= 0:
            raise ValueError("time_scale must be positive")
        with self._cond:
            self._rebase()
            self._scale = float(value)
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
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        with self._cond:
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
