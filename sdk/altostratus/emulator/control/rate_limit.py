"""The rate limiter (``--rate-limit``): a token bucket per API key in emulated time; a request
past it is answered 429 with ``Retry-After``."""

from __future__ import annotations

import math
import threading

from altostratus.emulator.clock import Clock


class RateLimiter:
    """A token bucket per API key: ``rate`` requests per emulated second, bursts up to
    ``max(rate, 1)``. Buckets are kept for at most ``max_keys`` keys (any text a caller sends
    is a key until it is authenticated): past that, the full ones, which the limiter would make
    again as they are, are dropped, then the longest unused."""

    MAX_KEYS = 10_000

    def __init__(self, clock: Clock, rate: float | None) -> None:
        self.clock = clock
        self.rate = rate
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}

    def check(self, key: str) -> int | None:
        """None when the request may pass; otherwise the Retry-After seconds."""
        if self.rate is None:
            return None
        capacity = max(self.rate, 1.0)
        now = self.clock.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (capacity, now))
            tokens = min(capacity, tokens + (now - last) * self.rate)
            if len(self._buckets) >= self.MAX_KEYS and key not in self._buckets:
                self._prune(now, capacity)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return None
            self._buckets[key] = (tokens, now)
            wait = self.clock.real_seconds((1.0 - tokens) / self.rate)
            return max(1, math.ceil(wait))

    def __len__(self) -> int:
        """How many keys have a bucket."""
        with self._lock:
            return len(self._buckets)

    def _prune(self, now: float, capacity: float) -> None:
        assert self.rate is not None
        rate = self.rate
        full = [
            k
            for k, (tokens, last) in self._buckets.items()
            if tokens + (now - last) * rate >= capacity
        ]
        for key in full:
            del self._buckets[key]
        if len(self._buckets) >= self.MAX_KEYS:
            by_use = sorted(self._buckets, key=lambda k: self._buckets[k][1])
            for key in by_use[: len(by_use) // 2]:
                del self._buckets[key]

    def reset(self) -> None:
        with self._lock:
            self._buckets.clear()
