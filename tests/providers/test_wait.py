"""Readiness waits: quick to notice a short provisioning delay, bounded, and cheap when long."""

from __future__ import annotations

import itertools

import pytest

from altostratus.providers._wait import (
    ReadinessFailed,
    ReadinessTimeout,
    poll_delays,
    wait_until,
)


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.polls = 0

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def state_after(self, ready_at: float, failed: bool = False) -> str:
        self.polls += 1
        if self.now >= ready_at:
            return "failed" if failed else "available"
        return ""


def _wait(clock: FakeTime, ready_at: float, timeout: float = 600, failed: bool = False) -> str:
    return wait_until(
        lambda: clock.state_after(ready_at, failed),
        str,
        ready=lambda state: state == "available",
        failed=frozenset({"failed"}),
        what="load balancer 'web'",
        timeout=timeout,
        sleep=clock.sleep,
        clock=lambda: clock.now,
    )


def test_a_two_second_delay_is_noticed_quickly_with_few_polls() -> None:
    clock = FakeTime()
    assert _wait(clock, ready_at=2.0) == "available"
    assert clock.now - 2.0 < 0.5
    assert clock.polls < 10


def test_long_waits_back_off_to_five_seconds() -> None:
    delays = list(itertools.islice(poll_delays(), 60))
    assert delays[:3] == [0.1, 0.2, 0.4]
    assert max(delays) == 5.0
    clock = FakeTime()
    _wait(clock, ready_at=300.0)
    assert clock.polls < 100


def test_the_wait_is_bounded() -> None:
    clock = FakeTime()
    with pytest.raises(ReadinessTimeout, match="waitTimeoutSeconds"):
        _wait(clock, ready_at=1e9, timeout=30)
    assert clock.now == pytest.approx(30)


def test_a_failed_state_ends_the_wait() -> None:
    with pytest.raises(ReadinessFailed, match="'failed'"):
        _wait(FakeTime(), ready_at=1.0, failed=True)
