"""Waits: quick to notice a short delay, bounded, and cheap when long; readiness, removal, and
retries of a refused delete."""

from __future__ import annotations

import itertools

import pytest

from altostratus.providers._wait import (
    ReadinessFailed,
    ReadinessTimeout,
    StillRefused,
    poll_delays,
    retry_while,
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


class Busy(Exception):
    pass


def test_a_refusal_is_retried_at_the_poll_delays_until_it_stops() -> None:
    clock = FakeTime()

    def attempt() -> str:
        clock.polls += 1
        if clock.now < 2.0:
            raise Busy("409 database_network_inuse: still used by firewall 'fw'")
        return "done"

    result = retry_while(
        attempt,
        lambda error: isinstance(error, Busy),
        why="still in use",
        timeout=600,
        sleep=clock.sleep,
        clock=lambda: clock.now,
    )
    assert result == "done" and clock.now - 2.0 < 0.5 and clock.polls < 10


def test_a_refusal_past_the_deadline_says_why_with_the_last_answer() -> None:
    clock = FakeTime()

    def attempt() -> None:
        raise Busy("still used by firewall 'fw'")

    with pytest.raises(StillRefused) as raised:
        retry_while(
            attempt,
            lambda error: isinstance(error, Busy),
            why="still in use",
            timeout=30,
            sleep=clock.sleep,
            clock=lambda: clock.now,
        )
    assert str(raised.value) == (
        "still in use after 30 s: still used by firewall 'fw'; raise "
        "altostratus:waitTimeoutSeconds to wait longer (pulumi destroy and refresh use the "
        "configuration stored by the last pulumi up: run pulumi up after raising it, or pass "
        "--run-program)"
    )
    assert clock.now == pytest.approx(30)


def test_any_other_error_is_raised_at_once() -> None:
    clock = FakeTime()

    def attempt() -> None:
        clock.polls += 1
        raise ValueError("409 network_delete_default")

    with pytest.raises(ValueError, match="network_delete_default"):
        retry_while(
            attempt,
            lambda error: isinstance(error, Busy),
            why="still in use",
            timeout=30,
            sleep=clock.sleep,
            clock=lambda: clock.now,
        )
    assert (clock.polls, clock.now) == (1, 0.0)


def test_a_wait_at_once_reads_before_any_pause_even_with_no_time_left() -> None:
    clock = FakeTime()
    states = iter(["Deleting", "gone"])

    def fetch() -> str:
        clock.polls += 1
        return next(states)

    found = wait_until(
        fetch,
        str,
        ready=lambda state: state == "gone",
        what="network n1",
        timeout=600,
        sleep=clock.sleep,
        clock=lambda: clock.now,
        at_once=True,
        goal="gone",
    )
    assert (found, clock.polls, clock.now) == ("gone", 2, 0.1)

    clock = FakeTime()
    with pytest.raises(ReadinessTimeout, match=r"was not gone after 0 s \(last state 'Deleting'\)"):
        wait_until(
            lambda: "Deleting",
            str,
            ready=lambda state: state == "gone",
            what="network n1",
            timeout=0,
            sleep=clock.sleep,
            clock=lambda: clock.now,
            at_once=True,
            goal="gone",
        )


def test_a_wait_and_a_refused_delete_each_say_one_progress_line_naming_the_resource(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from altostratus.client.errors import InUseError
    from altostratus.providers import _progress

    clock = FakeTime()
    refusals = iter(range(3))

    def delete() -> str:
        if next(refusals, None) is not None:
            raise InUseError(409, "in_use", "the network has members", method="DELETE", path="/x")
        return "deleted"

    with caplog.at_level("INFO", logger="altostratus.providers"), _progress.about("network 'app'"):
        _wait(clock, ready_at=3.0)
        retry_while(
            delete,
            lambda error: isinstance(error, InUseError),
            why="still in use",
            timeout=300,
            sleep=clock.sleep,
            clock=lambda: clock.now,
        )
    assert [record.getMessage() for record in caplog.records] == [
        "network 'app': waiting up to 600 s for it to be ready",
        "network 'app': still in use (409 in_use: the network has members (DELETE /x)); "
        "retrying for up to 300 s",
    ]
