"""The runner reports the providers' progress lines (waits, retries) as the engine shows them."""

from __future__ import annotations

from collections.abc import Callable

import altostratus as alto
from altostratus.emulator import Emulator
from altostratus.testing import Stack, StepEvent

BACKEND = {"ip": "10.48.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}


def test_a_retry_and_a_readiness_wait_reach_on_event_as_progress_of_their_step(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, engine_kind: str
) -> None:
    def program() -> None:
        network = alto.Network("app", cidr_v4="10.48.0.0/24")
        alto.LoadBalancer("web", network_id=network.id, backends=[BACKEND])

    fresh_emulator.app.faults.add(method="POST", path_prefix="/v2/vpc/networks", status=429)
    events: list[StepEvent] = []
    make_stack(program, on_event=events.append, engine=engine_kind).up()

    progress = [(e.op, e.name, e.message) for e in events if e.status == "progress"]
    assert len(progress) == 2, progress
    retry, wait = sorted(progress, key=lambda event: event[1])
    assert retry[:2] == ("create", "app")
    assert str(retry[2]).startswith("network 'app': retrying POST /v2/vpc/networks in ")
    assert " s after 429 rate_limited: " in str(retry[2])
    assert wait[:2] == ("create", "web")
    assert str(wait[2]).startswith("load balancer 'web-")
    assert str(wait[2]).endswith(" s for it to be ready")
