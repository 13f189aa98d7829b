"""Section 12: calls at once. A burst of slow creates through the provider process, beside raw
clients making the same requests and waits, and a check answered during the burst.

16 load balancers and 16 object stores, each provisioning for 2 s, are created at once: on the
engine's side as ``Check`` then ``Create`` over gRPC to one provider process (the engine sends
every independent resource at once), on the raw side by 32 threads of bare httpx that post, poll
on the providers' schedule (``_wait.poll_delays``) and read what the providers read. Rounds
alternate which side goes first. During each engine burst, ``Check`` calls for another resource
(no request to the API) are timed: they must not wait behind the creates' readiness waits.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from pulumi.runtime.proto import provider_pb2 as pb

from altostratus.providers._wait import poll_delays
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store import ObjectStoreProvider
from benchmarks.measure import median, ms, ratio_text, rounds
from benchmarks.raw import REGION, ThreadClients, raw_client
from benchmarks.report import INFO, Section, Table, verdict
from benchmarks.servers import (
    EmulatorProcess,
    stack_config,
    test_module,
)

TITLE = "12. Calls at once: a burst of slow creates"
RATIO_TARGET = 1.25
CHECK_TARGET = 0.050
BACKEND = {"ip": "10.20.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}
_WHERE = {"region": REGION}
_numbers = itertools.count()


def _name(kind: str) -> str:
    return f"{kind}-{next(_numbers)}"


class EngineSide:
    """One provider process, sent every resource's ``Check`` and ``Create`` at once."""

    def __init__(
        self, api_url: str, api_key: str, network: str, each: int, threads: int | None = None
    ) -> None:
        self.harness = test_module("engine")
        config = stack_config(api_url, api_key)
        if threads is not None:
            config["altostratus:providerThreads"] = str(threads)
        self.process = self.harness.ProviderProcess(config)
        self.network, self.each = network, each
        self.empty = self.harness.to_struct({})
        news = self.harness.Engine.program_inputs(NetworkProvider(), "other", {})
        self.check = pb.CheckRequest(
            urn=self.harness.Engine.urn(NetworkProvider(), "other"),
            olds=self.empty,
            news=self.harness.to_struct(news),
        )
        self.pool = ThreadPoolExecutor(2 * each)

    def _planned(self) -> list[tuple[str, Any]]:
        engine, plan = self.harness.Engine, []
        for number in range(self.each):
            lb_inputs = {"network_id": self.network, "backends": [BACKEND]}
            for provider, inputs in (
                (LoadBalancerProvider(), lb_inputs),
                (ObjectStoreProvider(), {"max_size_gb": 1}),
            ):
                name = f"burst{number}"
                news = engine.program_inputs(provider, name, inputs)
                plan.append((engine.urn(provider, name), self.harness.to_struct(news)))
        return plan

    def burst(self) -> tuple[float, list[float], list[tuple[str, str, Any]]]:
        """The burst's wall time, the checks' times during it, and what it made."""
        stub, plan = self.process.stub, self._planned()

        def create(item: tuple[str, Any]) -> tuple[str, str, Any]:
            urn, news = item
            checked = stub.Check(pb.CheckRequest(urn=urn, olds=self.empty, news=news))
            made = stub.Create(pb.CreateRequest(urn=urn, properties=checked.inputs))
            return urn, made.id, made.properties

        started = time.perf_counter()
        futures = [self.pool.submit(create, item) for item in plan]
        checks: list[float] = []
        time.sleep(0.3)  # the creates are in their readiness waits
        while len(checks) < 10 and not (checks and all(f.done() for f in futures)):
            began = time.perf_counter()
            stub.Check(self.check)
            checks.append(time.perf_counter() - began)
            time.sleep(0.1)
        made = [future.result() for future in futures]
        return time.perf_counter() - started, checks, made

    def delete(self, made: list[tuple[str, str, Any]]) -> None:
        stub = self.process.stub
        requests = [pb.DeleteRequest(id=id_, urn=urn, properties=outs) for urn, id_, outs in made]
        list(self.pool.map(stub.Delete, requests))

    def close(self) -> None:
        self.pool.shutdown()
        self.process.close()


def _wait_for(http: httpx.Client, path: str, ready: Callable[[dict[str, Any]], bool]) -> None:
    for delay in poll_delays():
        time.sleep(delay)
        answer = http.get(path, params=_WHERE)
        answer.raise_for_status()
        if ready(answer.json()):
            return


class RawSide:
    """Threads of bare httpx: the same posts, polls and reads as the providers."""

    def __init__(self, api_url: str, api_key: str, network: str, each: int) -> None:
        self.network, self.each = network, each
        self.clients = ThreadClients(api_url, api_key)
        self._http = self.clients.get
        self.pool = ThreadPoolExecutor(2 * each)

    def _balancer(self) -> tuple[str, str]:
        http = self._http()
        body = {"name": _name("lb"), "network_id": self.network, "region": REGION,
                "backends": [BACKEND]}  # fmt: skip
        answer = http.post("/v2/vpc/loadbalancers", params=_WHERE, json=body)
        answer.raise_for_status()
        path = f"/v2/vpc/loadbalancers/{answer.json()['id']}"
        _wait_for(http, path, lambda record: record.get("state") == "available")
        return path, ""

    def _store(self) -> tuple[str, str]:
        http = self._http()
        body = {"name": _name("store"), "region": REGION, "size": 1}
        answer = http.post("/v2/objectstores", params=_WHERE, json=body)
        answer.raise_for_status()
        path = f"/v2/objectstores/{answer.json()['id']}"
        _wait_for(
            http,
            path,
            lambda record: (
                record.get("status") == "ready" and bool(record.get("objectstore_endpoint"))
            ),
        )
        for page in itertools.count(1):  # every page of the credentials, as the client reads
            query: dict[str, str | int] = {**_WHERE, "page": page, "per_page": 100}
            listed = http.get("/v2/objectstore/credentials", params=query)
            listed.raise_for_status()
            if not listed.json()["items"] or page >= listed.json()["pages"]:
                return path, ""
        raise AssertionError("unreachable")

    def burst(self) -> tuple[float, list[tuple[str, str]]]:
        started = time.perf_counter()
        futures = [self.pool.submit(step) for _ in range(self.each)
                   for step in (self._balancer, self._store)]  # fmt: skip
        made = [future.result() for future in futures]
        return time.perf_counter() - started, made

    def delete(self, made: list[tuple[str, str]]) -> None:
        def remove(item: tuple[str, str]) -> None:
            self._http().delete(item[0], params=_WHERE).raise_for_status()

        list(self.pool.map(remove, made))

    def close(self) -> None:
        self.pool.shutdown()
        self.clients.close()


def run(quick: bool) -> Section:
    each, delay, count, seconds = (2, 0.3, 1, 10.0) if quick else (16, 2.0, 3, 90.0)
    section = Section("parallel", TITLE)
    table = Table(
        ["measure", "provider process", f"{2 * each} raw clients", "ratio", "target", "verdict"],
        caption=f"{each} load balancers and {each} object stores, {delay:g} s provisioning, "
        "created at once; median of interleaved rounds.",
    )
    with EmulatorProcess(lb_ready_seconds=delay, objectstore_ready_seconds=delay) as emulator:
        emulator.set_quota(
            public_ip_address=10_000,
            network_count=100,
            security_group=1_000,  # each balancer comes with a firewall of its own
            security_group_rule=10_000,
        )
        with raw_client(emulator.api_url, emulator.api_key) as http:
            body = {"label": "burst", "cidr_v4": "10.20.0.0/24", "region": REGION}
            answer = http.post("/v2/vpc/networks", params=_WHERE, json=body)
            answer.raise_for_status()
            network = answer.json()["id"]
        engine = EngineSide(emulator.api_url, emulator.api_key, network, each)
        raw = RawSide(emulator.api_url, emulator.api_key, network, each)
        ours: list[float] = []
        theirs: list[float] = []
        checks: list[float] = []
        made: dict[str, int] = {}
        sdk_bound: tuple[float, float] | None = None
        try:
            engine.delete(engine.burst()[2])  # warm up: imports, connections, threads
            raw.delete(raw.burst()[1])
            for number in rounds(count, seconds):
                for side in ("engine", "raw") if number % 2 == 0 else ("raw", "engine"):
                    emulator.clear_requests()
                    if side == "engine":
                        took, checked, created = engine.burst()
                        made[side] = len(emulator.requests())
                        ours.append(took)
                        checks.extend(checked)
                        engine.delete(created)
                    else:
                        took, handles = raw.burst()
                        made[side] = len(emulator.requests())
                        theirs.append(took)
                        raw.delete(handles)
            if not quick:  # once, for comparison: the Pulumi SDK's own four calls at once
                engine.close()
                engine = EngineSide(emulator.api_url, emulator.api_key, network, each, threads=4)
                took, checked, created = engine.burst()
                sdk_bound = (took, max(checked) if checked else float("nan"))
                engine.delete(created)
        finally:
            engine.close()
            raw.close()
    ratio = median(ours) / median(theirs)
    slowest = max(checks) if checks else float("nan")
    table.add(
        "burst wall time", f"{median(ours):.2f} s", f"{median(theirs):.2f} s", ratio_text(ratio),
        f"≤ {RATIO_TARGET:.2f}", verdict(ratio <= RATIO_TARGET),
    )  # fmt: skip
    typical = median(checks)
    table.add(
        f"Check during the burst (median of {len(checks)})", ms(typical), "", "",
        f"< {CHECK_TARGET * 1000:.0f} ms", verdict(typical < CHECK_TARGET),
    )  # fmt: skip
    table.add("Check during the burst (slowest)", ms(slowest), "", "", "", INFO)
    table.add("requests per burst", made.get("engine", 0), made.get("raw", 0), "", "", INFO)
    if sdk_bound is not None:
        four = sdk_bound[0] / median(theirs)
        table.add(
            "burst wall time, providerThreads=4 (one burst)", f"{sdk_bound[0]:.2f} s",
            f"{median(theirs):.2f} s", ratio_text(four), "", INFO,
        )  # fmt: skip
        table.add("Check during that burst (slowest)", ms(sdk_bound[1]), "", "", "", INFO)
        section.data["four_threads"] = {"burst": sdk_bound[0], "check_slowest": sdk_bound[1]}
    section.tables.append(table)
    section.data |= {
        "engine": median(ours),
        "raw": median(theirs),
        "ratio": ratio,
        "check_slowest": slowest,
        "check_median": median(checks),
        "requests": made,
        "rounds": len(ours),
    }
    section.notes.append(
        f"{len(ours)} interleaved rounds; the provider process at its default "
        "altostratus:providerThreads (64); with 4, the Pulumi SDK's own bound, the creates run "
        "in waves of four and a check waits for a free worker"
    )
    if quick:
        section.notes.append(f"quick run: {each} of each, {delay:g} s provisioning")
    return section
