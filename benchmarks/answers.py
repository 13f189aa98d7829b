"""Section 13: the emulator's answers beside the framework floor: the same server (cheroot, the
emulator's WSGI gateway) answering the very same bytes from a table, interleaved.

The floor is what serving costs before the application does anything: reading the request,
writing the answer's bytes. Each figure is floor time / emulator time, so 1.0 is an application
that costs nothing; a get, a list of 100 networks, and a create followed by its delete.

A second table holds the servers' CPU: a create followed by its delete sent by clients in
another process (``benchmarks.load``), and the user CPU this process (both servers' only home)
spent per request, beside the floor's for the same requests, so that a slip of the
application's cost per request shows as a ratio whatever the machine's speed.
"""

from __future__ import annotations

import http.client
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from altostratus.emulator import Emulator
from altostratus.emulator.serving.server import BackgroundServer
from benchmarks.measure import Pair, interleave
from benchmarks.report import INFO, Section, Table, verdict
from benchmarks.servers import ROOT, fast_emulator

TITLE = "13. Answers beside the framework floor"
TARGETS = {"get": 0.7, "list of 100": 0.4}
LISTED = 100
#: The most user CPU per request a create+delete may cost the emulator's process, as a multiple
#: of the floor's for the same requests (at the most clients).
CPU_TARGET = 3.5
CPU_CLIENTS = (1, 16)


class _Fixed:
    """A WSGI application answering each (method, path prefix) with recorded bytes."""

    def __init__(self) -> None:
        self.answers: dict[tuple[str, str], tuple[str, bytes]] = {}

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
        length = int(environ.get("CONTENT_LENGTH") or 0)
        if length:
            environ["wsgi.input"].read(length)
        key = (method, path)
        if key not in self.answers:
            key = (method, path.rsplit("/", 1)[0] + "/")
        status, body = self.answers[key]
        start_response(
            status, [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        )
        return [body]


class _Side:
    """One keep-alive connection and the key, to one server."""

    def __init__(self, port: int, key: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port)
        self.headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        self.connection.request(method, path, body=data, headers=self.headers)
        answer = self.connection.getresponse()
        return answer.status, answer.read()

    def timed(self, action: Callable[[_Side], object]) -> Callable[[], float]:
        def run() -> float:
            started = time.perf_counter()
            action(self)
            return time.perf_counter() - started

        return run


def _status(code: int) -> str:
    return f"{code} {http.client.responses[code]}"


def _record(emulator_side: _Side, fixed: _Fixed, method: str, path: str, body: Any = None) -> Any:
    code, data = emulator_side.call(method, path, body)
    assert code < 300, (code, data)
    key = (method, path) if method == "GET" else (method, path.rsplit("/", 1)[0] + "/")
    fixed.answers[key] = (_status(code), data)
    return json.loads(data)


def _fill(emulator: Emulator, side: _Side) -> str:
    """Networks in LON1 up to ``LISTED`` (the default one first); the id of the last."""
    emulator.set_quota(network_count=LISTED + 10)
    last = ""
    for number in range(LISTED - 1):
        code, data = side.call("POST", "/v2/networks", {"label": f"listed-{number}"})
        assert code == 201 or code == 200, data
        last = json.loads(data)["id"]
    return last


def _user_cpu(url: str, key: str, seconds: float, clients: int) -> float:
    """Seconds of this process's user CPU per request while ``clients`` in another process
    create and delete networks at ``url`` for ``seconds`` (each create+delete is two requests)."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    answer = subprocess.run(
        [sys.executable, "-m", "benchmarks.load", url, key, str(seconds), str(clients),
         "create+delete", "reuse"],
        capture_output=True, text=True, check=True, timeout=seconds + 60, cwd=ROOT,
    )  # fmt: skip
    spent = resource.getrusage(resource.RUSAGE_SELF).ru_utime - before
    counts = json.loads(answer.stdout)
    if counts["errors"] or not counts["requests"]:
        raise RuntimeError(f"the create+delete load failed: {counts}")
    return spent / (2 * int(counts["requests"]))


def _cpu(section: Section, quick: bool, emulator: Emulator, floor_port: int) -> Table:
    seconds, tries = (0.3, 1) if quick else (2.0, 5)
    table = Table(
        ["operation", "clients", "emulator", "floor", "emulator / floor", "target", "verdict"],
        caption="User CPU of the server's process per request, a create+delete sent by clients "
        "in another process keeping their connection; the least of interleaved runs.",
    )
    emulator.set_quota(network_count=LISTED + 100)
    urls = {"emulator": emulator.api_url, "floor": f"http://127.0.0.1:{floor_port}"}
    for clients in CPU_CLIENTS:
        spent: dict[str, list[float]] = {"emulator": [], "floor": []}
        for attempt in range(tries):
            for side in sorted(urls, reverse=attempt % 2 == 1):
                spent[side].append(_user_cpu(urls[side], emulator.api_key, seconds, clients))
        ours, floor = min(spent["emulator"]), min(spent["floor"])
        ratio = ours / floor
        last = clients == CPU_CLIENTS[-1]
        table.add(
            "create+delete", clients, f"{ours * 1e6:.0f} µs", f"{floor * 1e6:.0f} µs",
            f"{ratio:.2f}x", f"≤ {CPU_TARGET:g}x" if last else "",
            verdict(ratio <= CPU_TARGET) if last else INFO,
        )  # fmt: skip
        section.data[f"cpu.{clients}"] = {"emulator": ours, "floor": floor, "ratio": ratio}
    return table


def run(quick: bool) -> Section:
    count, seconds = (50, 5.0) if quick else (2000, 30.0)
    section = Section("answers", TITLE)
    table = Table(
        ["operation", "emulator", "floor", "floor / emulator", "target", "verdict"],
        caption="Median time of one request over a kept-alive loopback connection; the floor "
        "is the same server answering the same bytes with no application.",
    )
    fixed = _Fixed()
    floor_server = BackgroundServer("127.0.0.1", 0, fixed, "floor")
    floor_server.start()
    try:
        with fast_emulator() as emulator:
            port = int(emulator.api_url.rsplit(":", 1)[1])
            measured = _Side(port, emulator.api_key)
            baseline = _Side(floor_server.port, emulator.api_key)
            last = _fill(emulator, measured)
            get_path = f"/v2/networks/{last}"
            _record(measured, fixed, "GET", get_path)
            listed = _record(measured, fixed, "GET", "/v2/networks")
            assert len(listed) == LISTED, len(listed)
            made = _record(measured, fixed, "POST", "/v2/networks", {"label": "recorded"})
            _record(measured, fixed, "DELETE", f"/v2/networks/{made['id']}")
            # What the load generator's create+delete is answered (its paths are the vpc ones).
            made = _record(measured, fixed, "POST", "/v2/vpc/networks", {"label": "recorded"})
            _record(measured, fixed, "DELETE", f"/v2/vpc/networks/{made['id']}")

            def create_delete(side: _Side) -> None:
                code, data = side.call("POST", "/v2/networks", {"label": "passing"})
                assert code < 300, data
                side.call("DELETE", f"/v2/networks/{json.loads(data)['id']}")

            operations: dict[str, Callable[[_Side], object]] = {
                "get": lambda side: side.call("GET", get_path),
                "list of 100": lambda side: side.call("GET", "/v2/networks"),
                "create + delete": create_delete,
            }
            for name, action in operations.items():
                for _ in range(20):  # warm up both
                    action(measured)
                    action(baseline)
                pair: Pair = interleave(
                    measured.timed(action), baseline.timed(action), count, seconds
                )
                share = 1 / pair.ratio
                target = TARGETS.get(name)
                table.add(
                    name,
                    f"{sorted(pair.measured)[len(pair.measured) // 2] * 1e6:.0f} µs",
                    f"{sorted(pair.baseline)[len(pair.baseline) // 2] * 1e6:.0f} µs",
                    f"{share:.2f}",
                    INFO if target is None else f"≥ {target:.1f}",
                    INFO if target is None else verdict(share >= target),
                )
                section.data[name] = {"share": share, "rounds": len(pair.measured)}
            section.tables.append(table)
            section.tables.append(_cpu(section, quick, emulator, floor_server.port))
    finally:
        floor_server.stop()
    return section
