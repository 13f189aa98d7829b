"""Section 3: a stack of resources created, refreshed and deleted through the real provider
process over gRPC with 4 calls at once, beside 4 raw clients sending the same requests.

The engine's side is driven the way the engine drives it: ``Check`` then ``Create`` with the
checked inputs passed on as they came, ``Read`` with the old outputs and inputs, ``Delete`` with
the outputs. The program's inputs are serialized before the clock starts (the engine is not what
is measured). Both sides talk to an emulator in its own process.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from google.protobuf import struct_pb2
from pulumi.runtime.proto import provider_pb2 as pb

from altostratus.emulator import EmulatorControls
from benchmarks.measure import median, ms, ratio_text, rounds, timed
from benchmarks.raw import KINDS, Kind, ThreadClients, raw_client
from benchmarks.report import INFO, Section, Table, verdict
from benchmarks.servers import (
    EmulatorProcess,
    add_latency,
    stack_config,
    test_module,
)

TITLE = "3. A stack through the engine's path"
TARGET = 1.25
CONCURRENCY = 4
PHASES = ("create", "refresh", "delete")


@dataclass
class Planned:
    kind: Kind
    urn: str
    news: struct_pb2.Struct


class EngineSide:
    def __init__(self, api_url: str, api_key: str, plan_size: int) -> None:
        harness = test_module("engine")
        self.process = harness.ProviderProcess(stack_config(api_url, api_key))
        self.pool = ThreadPoolExecutor(CONCURRENCY)
        self.empty = harness.to_struct({})
        self.plan = []
        for number in range(plan_size):
            kind = KINDS[number % len(KINDS)]
            name = f"r{number}"
            news = harness.Engine.program_inputs(kind.provider, name, dict(kind.inputs))
            urn = harness.Engine.urn(kind.provider, name)
            self.plan.append(Planned(kind, urn, harness.to_struct(news)))

    def run(self) -> dict[str, float]:
        stub = self.process.stub

        def create(item: Planned) -> tuple[Planned, str, Any, Any]:
            checked = stub.Check(pb.CheckRequest(urn=item.urn, olds=self.empty, news=item.news))
            made = stub.Create(pb.CreateRequest(urn=item.urn, properties=checked.inputs))
            return item, made.id, made.properties, checked.inputs

        def refresh(held: tuple[Planned, str, Any, Any]) -> tuple[Planned, str, Any, Any]:
            item, id_, outs, inputs = held
            read = stub.Read(pb.ReadRequest(id=id_, urn=item.urn, properties=outs, inputs=inputs))
            return item, id_, read.properties, read.inputs

        def delete(held: tuple[Planned, str, Any, Any]) -> None:
            item, id_, outs, _ = held
            stub.Delete(pb.DeleteRequest(id=id_, urn=item.urn, properties=outs))

        return _phases(self.pool, self.plan, create, refresh, delete)

    def one_call(self, count: int) -> dict[str, list[float]]:
        """Single calls, one at a time: ``Check`` (no request to the API) and ``Read`` (one)."""
        stub, item = self.process.stub, self.plan[0]
        checked = stub.Check(pb.CheckRequest(urn=item.urn, olds=self.empty, news=item.news))
        made = stub.Create(pb.CreateRequest(urn=item.urn, properties=checked.inputs))
        read = pb.ReadRequest(id=made.id, urn=item.urn, properties=made.properties)
        read.inputs.CopyFrom(checked.inputs)
        check = pb.CheckRequest(urn=item.urn, olds=self.empty, news=item.news)
        times: dict[str, list[float]] = {"check": [], "read": []}
        for _ in range(count):
            times["check"].append(timed(lambda: stub.Check(check)))
            times["read"].append(timed(lambda: stub.Read(read)))
        stub.Delete(pb.DeleteRequest(id=made.id, urn=item.urn, properties=made.properties))
        return times

    def close(self) -> None:
        self.pool.shutdown()
        self.process.close()


class RawSide:
    def __init__(self, api_url: str, api_key: str, plan_size: int) -> None:
        self.kinds = [KINDS[number % len(KINDS)] for number in range(plan_size)]
        self.clients = ThreadClients(api_url, api_key)
        self._http = self.clients.get
        self.pool = ThreadPoolExecutor(CONCURRENCY)

    def run(self) -> dict[str, float]:
        def create(kind: Kind) -> tuple[Kind, dict[str, Any]]:
            return kind, kind.create(self._http())

        def refresh(held: tuple[Kind, dict[str, Any]]) -> tuple[Kind, dict[str, Any]]:
            kind, handle = held
            kind.read(self._http(), handle)
            return held

        def delete(held: tuple[Kind, dict[str, Any]]) -> None:
            kind, handle = held
            kind.delete(self._http(), handle)

        return _phases(self.pool, self.kinds, create, refresh, delete)

    def close(self) -> None:
        self.pool.shutdown()
        self.clients.close()


def _phases(
    pool: ThreadPoolExecutor,
    plan: list[Any],
    create: Callable[[Any], Any],
    refresh: Callable[[Any], Any],
    delete: Callable[[Any], Any],
) -> dict[str, float]:
    """Each phase over every resource, ``CONCURRENCY`` calls at once; the pool's threads (and
    their connections) live across phases, as a running engine's would."""
    times: dict[str, float] = {}
    held: list[Any] = plan
    for phase, action in zip(PHASES, (create, refresh, delete), strict=True):
        started = time.perf_counter()
        held = list(pool.map(action, held))
        times[phase] = time.perf_counter() - started
    times["total"] = sum(times.values())
    return times


def _compare(
    sides: dict[str, EngineSide | RawSide], emulator: EmulatorControls, count: int, seconds: float
) -> tuple[dict[str, list[dict[str, float]]], dict[str, int]]:
    found: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    made: dict[str, int] = {}
    for number in rounds(count, seconds):
        order = list(sides) if number % 2 == 0 else list(reversed(sides))
        for name in order:
            emulator.clear_requests()
            found[name].append(sides[name].run())
            made[name] = len(emulator.requests())
    return found, made


def run(quick: bool) -> Section:
    size = 8 if quick else 100
    plans = [(0.0, 1, 2.0), (0.05, 1, 2.0)] if quick else [(0.0, 3, 60.0), (0.05, 2, 60.0)]
    section = Section("stack", TITLE)
    table = Table(
        ["added latency", "phase", "engine path", "4 raw clients", "ratio", "target", "verdict"],
        caption=f"{size} resources ({', '.join(k.name for k in KINDS)} in turn), "
        f"{CONCURRENCY} calls at once; median wall time of each phase.",
    )
    with EmulatorProcess() as emulator:
        emulator.set_quota(
            network_count=10_000,
            public_ip_address=10_000,
            loadbalancer_count=10_000,
            security_group=10_000,
            security_group_rule=100_000,
        )
        engine = EngineSide(emulator.api_url, emulator.api_key, size)
        raw = RawSide(emulator.api_url, emulator.api_key, size)
        try:
            engine.run()  # warm up: the provider process's imports, the connections
            raw.run()
            section.tables.append(_one_call(engine, emulator, 5 if quick else 100))
            for latency, count, seconds in plans:
                if latency:
                    add_latency(emulator, latency)
                sides: dict[str, EngineSide | RawSide] = {"engine": engine, "raw": raw}
                found, made = _compare(sides, emulator, count, seconds)
                emulator.clear_faults()
                shown = f"{latency * 1000:.0f} ms"
                for phase in (*PHASES, "total"):
                    ours = median([t[phase] for t in found["engine"]])
                    theirs = median([t[phase] for t in found["raw"]])
                    ratio = ours / theirs
                    judged = verdict(ratio <= TARGET) if phase == "total" else INFO
                    target = f"≤ {TARGET:.2f}" if phase == "total" else ""
                    table.add(
                        shown, phase, f"{ours:.2f} s", f"{theirs:.2f} s", ratio_text(ratio),
                        target, judged,
                    )  # fmt: skip
                    section.data[f"{shown}.{phase}"] = {"engine": ours, "raw": theirs}
                section.data[f"{shown}.requests"] = made
                section.notes.append(
                    f"{shown}: {len(found['engine'])} interleaved rounds; requests per run: "
                    f"engine path {made['engine']}, raw {made['raw']}"
                )
        finally:
            engine.close()
            raw.close()
    section.tables.insert(0, table)
    return section


def _one_call(engine: EngineSide, emulator: EmulatorProcess, count: int) -> Table:
    """Where the engine path's time goes: a call's fixed cost in the provider process."""
    times = engine.one_call(count)
    kind = engine.plan[0].kind
    with raw_client(emulator.api_url, emulator.api_key) as http:
        handle = kind.create(http)
        raw_reads = [timed(lambda: kind.read(http, handle)) for _ in range(count)]
        kind.delete(http, handle)
    table = Table(
        ["call, one at a time", "median", "verdict"],
        caption=f"The provider process's cost per call ({kind.name}), no concurrency.",
    )
    table.add("gRPC Check (no API request)", ms(median(times["check"])), INFO)
    table.add("gRPC Read (one GET)", ms(median(times["read"])), INFO)
    table.add("raw GET of the same record", ms(median(raw_reads)), INFO)
    return table
