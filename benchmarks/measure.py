"""Timing: medians, interleaved comparisons, and loops bounded in count and in time."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def rounds(count: int, seconds: float) -> Iterator[int]:
    """Round numbers up to ``count``, stopping early once ``seconds`` have passed (never
    before the first round)."""
    deadline = time.monotonic() + seconds
    for number in range(count):
        if number and time.monotonic() > deadline:
            return
        yield number


@dataclass
class Pair:
    """Times of a measured side and its baseline, taken in alternating order."""

    measured: list[float] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return median(self.measured) / median(self.baseline)


def interleave(
    measured: Callable[[], float],
    baseline: Callable[[], float],
    count: int,
    seconds: float,
) -> Pair:
    """Run both sides ``count`` times (bounded by ``seconds``), swapping which goes first each
    round so that drift in the machine's speed falls on both; each callable returns its time."""
    pair = Pair()
    for number in rounds(count, seconds):
        if number % 2 == 0:
            pair.measured.append(measured())
            pair.baseline.append(baseline())
        else:
            pair.baseline.append(baseline())
            pair.measured.append(measured())
    return pair


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} µs"


def ratio_text(value: float) -> str:
    return f"{value:.2f}"
