"""The test controls as Python calls (``Emulator.add_fault``, ``requests``, ``advance_clock``,
``reset``, accounts and quota): what each does is what a test of a program sees, and what the
admin endpoints refuse they refuse too."""

from __future__ import annotations

from datetime import datetime

import pytest

from altostratus.client import Client, NotFoundError, QuotaExceededError, ServerError
from altostratus.emulator import ControlRefused, Emulator, EmulatorControls


def _client(emulator: Emulator, key: str | None = None) -> Client:
    return Client(api_key=key or emulator.api_key, api_url=emulator.api_url, max_retries=0)


def test_a_fault_fails_the_matching_requests_and_the_log_shows_them(
    fresh_emulator: Emulator,
) -> None:
    fault = fresh_emulator.add_fault(method="GET", path_prefix="/v2/vpc/networks", status=503)
    assert fault
    with _client(fresh_emulator) as api:
        with pytest.raises(ServerError):
            api.networks.list()
        assert api.networks.list()  # one request only: count 1
        fresh_emulator.add_fault(path_prefix="/v2/vpc/firewalls", status=500, count=5)
        fresh_emulator.clear_faults()
        assert api.firewalls.list() is not None
    made = [(e["method"], e["path"], e["status"]) for e in fresh_emulator.requests()]
    assert made == [
        ("GET", "/v2/vpc/networks", 503),
        ("GET", "/v2/vpc/networks", 200),
        ("GET", "/v2/vpc/firewalls", 200),
    ]
    fresh_emulator.clear_requests()
    assert fresh_emulator.requests() == []


def test_advancing_the_clock_moves_emulated_time_and_a_bad_amount_is_refused(
    fresh_emulator: Emulator,
) -> None:
    before = fresh_emulator.clock.now()
    now = datetime.fromisoformat(fresh_emulator.advance_clock(3600))
    assert 3599 <= (now - before).total_seconds() < 3660  # the answer is to the second
    with pytest.raises(ControlRefused) as refused:
        fresh_emulator.advance_clock(-1)
    assert (refused.value.status, refused.value.code) == (400, "parameter_advance_seconds_invalid")
    assert isinstance(refused.value, ValueError)
    with pytest.raises(ControlRefused, match="parameter_status_invalid"):
        fresh_emulator.add_fault(status=200)


def test_quota_and_accounts(fresh_emulator: Emulator) -> None:
    quota = fresh_emulator.set_quota(network_count=0)
    assert quota["network_count_limit"] == 0
    with _client(fresh_emulator) as api, pytest.raises(QuotaExceededError):
        api.networks.create(label="over")
    other = fresh_emulator.add_account("other")
    assert [a["name"] for a in fresh_emulator.accounts()] == ["default", "other"]
    fresh_emulator.set_quota(other["id"], network_count=1)
    with _client(fresh_emulator, other["api_key"]) as theirs:
        assert theirs.networks.create(label="theirs").id


def test_an_emulator_of_another_process_is_controlled_by_its_address(
    fresh_emulator: Emulator,
) -> None:
    controls = EmulatorControls(fresh_emulator.api_url)
    with _client(fresh_emulator) as api:
        network = api.networks.create(label="gone-after-reset")
        controls.reset()
        assert controls.requests() == [] and controls.deliveries() == []
        with pytest.raises(NotFoundError):
            api.networks.get(network.id)


def test_an_emulator_not_served_yet_says_so() -> None:
    emulator = Emulator()
    with pytest.raises(RuntimeError, match="not served yet"):
        emulator.requests()
    emulator.reset()  # made in this process: no server needed
