"""Section 4: readiness waits. With a provisioning delay, how late after the resource became
ready does create return, and how many polls did it make.

"Ready" is the emulator's own moment (the record's ``ready_at`` on its clock, which runs at real
speed here), so the lateness is exact rather than estimated from the delay.
"""

from __future__ import annotations

from typing import Any

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers._base import Provider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.object_store import ObjectStoreProvider
from benchmarks.measure import median
from benchmarks.report import Section, Table, verdict
from benchmarks.servers import clear_log, configure_providers, requests_log

TITLE = "4. Readiness waits"
LATE_TARGET = 0.5
POLL_TARGET = 10
BACKEND = {"ip": "10.20.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}


def _wait_once(
    emulator: Emulator, provider: Provider, news: dict[str, Any], records: Any, path: str
) -> tuple[float, float, int]:
    """Create once; the create's time, how late it returned after ready, and its polls."""
    checked = provider.check({}, news)
    assert not checked.failures, checked.failures
    clear_log(emulator.api_url)
    started = emulator.clock.monotonic()
    created = provider.create(checked.inputs)
    returned = emulator.clock.monotonic()
    ready_at = records[created.id].ready_at
    polls = sum(
        1
        for entry in requests_log(emulator.api_url)
        if entry["method"] == "GET" and entry["path"] == f"{path}/{created.id}"
    )
    provider.delete(created.id, created.outs or {})
    return returned - started, returned - ready_at, polls


def run(quick: bool) -> Section:
    delay, count = (0.3, 1) if quick else (2.0, 3)
    section = Section("readiness", TITLE)
    table = Table(
        ["resource", "provisioning", "create took", "late after ready", "polls", "target",
         "verdict"],
        caption=f"Worst of {count} creates each.",
    )  # fmt: skip
    with Emulator(lb_ready_seconds=delay, objectstore_ready_seconds=delay) as emulator:
        configure_providers(emulator.api_url, emulator.api_key)
        with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
            network = api.networks.create(label="waits", cidr_v4="10.20.0.0/24")
        balancer = {"network_id": network.id, "backends": [BACKEND], "__name_prefix": "wait"}
        cases: list[tuple[str, Provider, dict[str, Any], str, str]] = [
            ("load_balancer", LoadBalancerProvider(), balancer, "load_balancers",
             "/v2/vpc/loadbalancers"),
            ("object_store", ObjectStoreProvider(), {"__name_prefix": "wait", "max_size_gb": 1},
             "object_stores", "/v2/objectstores"),
        ]  # fmt: skip
        for name, provider, news, store, path in cases:
            records = getattr(emulator.state, store).records
            found = [_wait_once(emulator, provider, news, records, path) for _ in range(count)]
            took = max(f[0] for f in found)
            late = max(f[1] for f in found)
            polls = max(f[2] for f in found)
            ok = late < LATE_TARGET and polls < POLL_TARGET
            table.add(
                name, f"{delay:g} s", f"{took:.2f} s", f"{late:.2f} s", polls,
                f"< {LATE_TARGET:g} s late, < {POLL_TARGET} polls", verdict(ok),
            )  # fmt: skip
            section.data[name] = {
                "delay": delay,
                "late": late,
                "late_median": median([f[1] for f in found]),
                "polls": polls,
                "took": took,
            }
    if quick:
        section.notes.append("quick run: a 0.3 s provisioning delay instead of 2 s")
    section.tables.append(table)
    return section
