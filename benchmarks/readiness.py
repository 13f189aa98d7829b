"""Section 4: readiness and removal waits. With a provisioning delay, how late after the resource
became ready does create return, and how many polls did it make; with a removal delay
(``delete_seconds``), the same for a network's delete, alone and held by a load balancer being
removed.

"Ready" is the emulator's own moment (the record's ``ready_at`` on its clock, which runs at real
speed here), so the lateness is exact rather than estimated from the delay. A removal's end is
not kept once it is over, so its lateness is bounded from above: the delete returned at most that
late after the network was gone.
"""

from __future__ import annotations

from typing import Any

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers._base import Provider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store import ObjectStoreProvider
from benchmarks.measure import median
from benchmarks.report import Section, Table, verdict
from benchmarks.servers import configure_providers

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
    emulator.clear_requests()
    started = emulator.clock.monotonic()
    created = provider.create(checked.inputs)
    returned = emulator.clock.monotonic()
    ready_at = records[created.id].ready_at
    polls = sum(
        1
        for entry in emulator.requests()
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
    section.tables.append(table)
    section.tables.append(_removals(section, delay, count))
    if quick:
        section.notes.append("quick run: 0.3 s provisioning and removal delays instead of 2 s")
    return section


def _removal_once(emulator: Emulator, api: Client, held: bool, delay: float) -> tuple[float, ...]:
    """Delete a network (held by a load balancer just deleted, when ``held``) through the
    provider; the delete's time, its lateness bound, its confirming reads and its DELETEs."""
    network = api.networks.create(label="removal", cidr_v4="10.21.0.0/24")
    earliest_gone = emulator.clock.monotonic() + delay
    if held:
        backend = {"ip": "10.21.0.9", "protocol": "TCP", "source_port": 80, "target_port": 80}
        balancer = api.load_balancers.create(
            name="removal", network_id=network.id, backends=[backend]
        )
        api.load_balancers.delete(balancer.id)
        earliest_gone = emulator.clock.monotonic() + 2 * delay  # freed, then removed
    emulator.clear_requests()
    started = emulator.clock.monotonic()
    NetworkProvider().delete(network.id, {"region": "LON1"})
    returned = emulator.clock.monotonic()
    sent = [e["method"] for e in emulator.requests()]
    return returned - started, returned - earliest_gone, sent.count("GET"), sent.count("DELETE")


def _removals(section: Section, delay: float, count: int) -> Table:
    table = Table(
        ["network delete", "removal", "delete took", "late after gone (at most)", "reads",
         "DELETEs", "target", "verdict"],
        caption=f"Worst of {count} deletes each, on an emulator whose removals take {delay:g} s. "
        "A network held by a load balancer being removed waits twice (its DELETE retried until "
        "the balancer is gone, then its own removal), each within a poll interval.",
    )  # fmt: skip
    with Emulator(delete_seconds=delay) as emulator:
        configure_providers(emulator.api_url, emulator.api_key)
        with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
            default = next(n for n in api.networks.list() if n.default)
            NetworkProvider().read(default.id, {"region": "LON1"})  # the provider's client made
            for name, held in (("alone", False), ("held by a load balancer being removed", True)):
                found = [_removal_once(emulator, api, held, delay) for _ in range(count)]
                took, late = max(f[0] for f in found), max(f[1] for f in found)
                polls, deletes = max(f[2] for f in found), max(f[3] for f in found)
                waits = 2 if held else 1  # the 409 retried until freed, then the removal
                ok = late < waits * LATE_TARGET and polls < POLL_TARGET
                table.add(
                    name, f"{delay:g} s", f"{took:.2f} s", f"{late:.2f} s", polls, deletes,
                    f"< {waits * LATE_TARGET:g} s late, < {POLL_TARGET} reads", verdict(ok),
                )  # fmt: skip
                section.data[f"network delete, {name}"] = {
                    "delay": delay,
                    "late": late,
                    "polls": polls,
                    "deletes": deletes,
                    "took": took,
                }
    return table
