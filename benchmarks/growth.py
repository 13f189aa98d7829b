"""Section 7: growth. Listing 10, 1 000 and 10 000 reserved IPs through the client's pagination,
and the emulator's read requests per second under 8 concurrent clients at each size.

The addresses are put straight into the emulator's state (from 198.18.0.0/15, the range set
aside for benchmarks): the API's create refuses past the emulator's public pool of 762 addresses,
and checks name uniqueness by scanning the region. The account's quota is raised first, so the
account stays consistent. The load comes from ``benchmarks.load`` in its own process.
"""

from __future__ import annotations

import ipaddress
import json
import subprocess
import sys
import time

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.emulator.state.base import new_id
from altostratus.emulator.state.reserved_ips import ReservedIp
from benchmarks.measure import median, rounds
from benchmarks.report import INFO, Section, Table, verdict
from benchmarks.servers import ROOT, fast_emulator

TITLE = "7. Growth"
LINEAR_TARGET = 1.5
CLIENTS = 8
_FIRST = ipaddress.IPv4Address("198.18.0.0")


def _fill(emulator: Emulator, account_id: str, size: int) -> str:
    """Reserved IPs 0 … size-1 in LON1; returns the id of the first."""
    state = emulator.state
    with state.lock:
        records = state.reserved_ips.records
        for number in range(len(records), size):
            record = ReservedIp(
                id=new_id(),
                account_id=account_id,
                region="LON1",
                name=f"ip-{number}",
                ip=str(_FIRST + number),
            )
            records[record.id] = record
        return next(iter(records))


def _load(emulator: Emulator, path: str, seconds: float, tries: int) -> float:
    """Requests per second of GET ``path`` under ``CLIENTS`` concurrent clients: the best of
    ``tries`` runs, since whatever else the machine does can only lower a rate."""
    return max(_load_once(emulator, path, seconds) for _ in range(tries))


def _load_once(emulator: Emulator, path: str, seconds: float) -> float:
    answer = subprocess.run(
        [sys.executable, "-m", "benchmarks.load", emulator.api_url, emulator.api_key,
         str(seconds), str(CLIENTS), path],
        capture_output=True, text=True, check=True, timeout=seconds + 60, cwd=ROOT,
    )  # fmt: skip
    counts = json.loads(answer.stdout)
    assert counts["errors"] == 0, counts
    return float(counts["requests"]) / float(counts["seconds"])


def run(quick: bool) -> Section:
    sizes = (10, 1000) if quick else (10, 1000, 10_000)
    count, seconds = (2, 3.0) if quick else (5, 20.0)
    load_seconds, tries = (0.3, 1) if quick else (1.0, 3)
    section = Section("growth", TITLE)
    listing = Table(
        ["reserved IPs", "requests", "list time", "per item", "growth per item", "target",
         "verdict"],
        caption="Listing every reserved IP with the client (pages of 100); median time.",
    )  # fmt: skip
    load = Table(
        ["reserved IPs", "GET one IP", "GET one page of 100", "target (GET one IP)", "verdict"],
        caption=f"Emulator requests per second, {CLIENTS} concurrent clients in another process "
        "(best of several runs).",
    )
    per_item: dict[int, float] = {}
    rates: dict[int, float] = {}
    with fast_emulator() as emulator:
        emulator.set_quota(
            public_ip_address=max(sizes),
            loadbalancer_count=max(sizes),
            security_group=max(sizes) + 20,
            security_group_rule=10 * max(sizes) + 200,
        )
        account = emulator.accounts()[0]
        with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
            for size in sizes:
                first = _fill(emulator, account["id"], size)
                emulator.clear_requests()
                assert len(api.reserved_ips.list()) == size
                pages = len(emulator.requests())
                times = []
                for _ in rounds(count, seconds):
                    started = time.perf_counter()
                    api.reserved_ips.list()
                    times.append(time.perf_counter() - started)
                took = median(times)
                per_item[size] = took / size
                growth = per_item[size] / per_item[sizes[1]] if size > sizes[1] else None
                judged = INFO if growth is None else verdict(growth <= LINEAR_TARGET)
                listing.add(
                    f"{size:,}", pages, f"{took * 1000:.1f} ms", f"{per_item[size] * 1e6:.1f} µs",
                    "" if growth is None else f"{growth:.2f}x the 1,000 figure",
                    "" if growth is None else f"≤ {LINEAR_TARGET:g}x", judged,
                )  # fmt: skip
                one = _load(emulator, f"/v2/vpc/ips/{first}?region=LON1", load_seconds, tries)
                page = _load(emulator, "/v2/vpc/ips?region=LON1&per_page=100", load_seconds, tries)
                rates[size] = one
                kept = one / rates[sizes[0]]
                judged = INFO if size == sizes[0] else verdict(kept >= 1 / LINEAR_TARGET)
                load.add(
                    f"{size:,}", f"{one:.0f}/s", f"{page:.0f}/s",
                    f"≥ {1 / LINEAR_TARGET:.2f}x the rate at {sizes[0]}", judged,
                )  # fmt: skip
                section.data[str(size)] = {
                    "requests": pages,
                    "list_seconds": took,
                    "per_item": per_item[size],
                    "get_one_per_second": one,
                    "get_page_per_second": page,
                }
    section.tables += [listing, load]
    return section
