"""Section 9: a user's feedback loop: ``up`` then ``destroy`` of each example through
``altostratus.testing``, beside the same service requests sent by a raw client.

The testing side is what a user's test does: a ``Stack`` of the example's project directory
against an emulator in its own process, the program run in this process and the providers in
the real provider process, shared by the runs (as the pytest fixture shares it by session); a
first run with the provider process starting is shown apart. The raw side replays, with one
bare httpx client and one request at a time, the requests one testing run made (recorded
through a loopback proxy; see ``benchmarks.replay``): the floor of the same work with no engine,
no program and no provider. Resources are ready at once (readiness waits are section 4's), but
the providers' first poll still comes 0.1 s after a create, which the replay does not wait.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from altostratus.client import Client
from altostratus.testing import ProviderProcesses, Stack
from benchmarks.measure import interleave, median, ratio_text
from benchmarks.raw import raw_client
from benchmarks.replay import Exchange, Recorder, replay
from benchmarks.report import INFO, Section, Table
from benchmarks.servers import ROOT, EmulatorProcess

TITLE = "9. Testing a program: up + destroy through altostratus.testing"
EXAMPLES = ("private-network", "load-balancer", "object-storage", "webhooks", "stack-composition")
REFERENCE = "organization/altostratus-private-network/dev"
HOOK_URL = "http://127.0.0.1:9/hooks"  # a closed port: no delivery while the section runs


def _config(example: str) -> dict[str, str]:
    if example == "webhooks":
        return {"url": HOOK_URL}
    if example == "stack-composition":
        return {"networkStack": REFERENCE}
    return {}


class Loop:
    """``up`` + ``destroy`` of one example through ``Stack``, timed."""

    def __init__(self, example: str, api_url: str, api_key: str, network_id: str) -> None:
        self.example = example
        self.api_url, self.api_key = api_url, api_key
        self.references = {REFERENCE: {"network_id": network_id}}

    def run(self, processes: ProviderProcesses, api_url: str | None = None) -> float:
        stack = Stack(
            ROOT / "examples" / self.example,
            config={"altostratus:apiUrl": api_url or self.api_url, **_config(self.example)},
            secrets={"altostratus:apiKey": self.api_key},
            references=self.references,
            processes=processes,
            stack="dev",
        )
        started = time.perf_counter()
        stack.up()
        stack.destroy()
        return time.perf_counter() - started

    def record(self, processes: ProviderProcesses) -> list[Exchange]:
        recorder = Recorder(self.api_url)
        try:
            self.run(processes, recorder.url)
        finally:
            recorder.close()
        return recorder.exchanges


def _replayer(api_url: str, api_key: str, exchanges: list[Exchange]) -> Callable[[], float]:
    def run() -> float:
        with raw_client(api_url, api_key) as http:
            started = time.perf_counter()
            statuses = replay(http, exchanges)
            elapsed = time.perf_counter() - started
        expected = [e.status for e in exchanges]
        if statuses != expected:
            raise RuntimeError(f"the replay was answered {statuses}, the recording {expected}")
        return elapsed

    return run


def run(quick: bool) -> Section:
    count, seconds = (1, 5.0) if quick else (7, 60.0)
    section = Section("testing", TITLE)
    table = Table(
        [
            "example",
            "requests",
            "altostratus.testing",
            "raw client",
            "ratio",
            "first run",
            "verdict",
        ],
        caption="Median wall time of up + destroy; the first run includes starting the "
        "provider process. Raw client: the same requests replayed one at a time.",
    )
    totals: dict[str, list[float]] = {"testing": [], "raw": []}
    with EmulatorProcess(lb_ready_seconds=0) as emulator:
        emulator.set_quota(
            network_count=1_000,
            public_ip_address=1_000,
            loadbalancer_count=1_000,
            security_group=1_000,
            security_group_rule=10_000,
        )
        with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
            network_id = client.networks.create(label="referenced", cidr_v4="10.90.0.0/24").id
        processes = ProviderProcesses()
        try:
            for example in EXAMPLES:
                loop = Loop(example, emulator.api_url, emulator.api_key, network_id)
                first = _first_run(loop) if example == EXAMPLES[0] else None
                exchanges = loop.record(processes)
                loop.run(processes)  # warm: the program's imports, the process's connections
                pair = interleave(
                    functools.partial(loop.run, processes),
                    _replayer(emulator.api_url, emulator.api_key, exchanges),
                    count,
                    seconds,
                )
                ours, theirs = median(pair.measured), median(pair.baseline)
                totals["testing"].append(ours)
                totals["raw"].append(theirs)
                table.add(
                    example,
                    len(exchanges),
                    f"{ours:.2f} s",
                    f"{theirs:.3f} s",
                    ratio_text(pair.ratio),
                    f"{first:.2f} s" if first is not None else "",
                    INFO,
                )
                section.data[example] = _figures(ours, theirs, len(exchanges), first)
        finally:
            processes.close()
    ours, theirs = sum(totals["testing"]), sum(totals["raw"])
    table.add(
        "all five", "", f"{ours:.2f} s", f"{theirs:.3f} s", ratio_text(ours / theirs), "", INFO
    )
    section.data["all"] = _figures(ours, theirs, 0, None)
    section.tables.append(table)
    section.notes.append(f"{count} interleaved rounds per example (at most {seconds:.0f} s each)")
    return section


def _first_run(loop: Loop) -> float:
    """A run whose provider process starts with it, as in a test session's first test."""
    processes = ProviderProcesses()
    try:
        return loop.run(processes)
    finally:
        processes.close()


def _figures(ours: float, theirs: float, requests: int, first: float | None) -> dict[str, Any]:
    return {"testing": ours, "raw": theirs, "requests": requests, "first": first}
