"""Section 8: the emulator as a service. Its server beside werkzeug's development server (the
same application and state, interleaved, the load from another process), the 10 000th network
and firewall create beside the 10th (in memory, and a network with ``--state-dir``), and the
memory 1 000 records take (and give back on reset).
"""

from __future__ import annotations

import gc
import json
import logging
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from werkzeug.serving import make_server
from werkzeug.test import Client as WsgiClient

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.emulator.reading.bodies import FirewallCreate, NetworkCreate
from altostratus.emulator.state.base import Effects
from benchmarks.measure import median
from benchmarks.report import INFO, Section, Table, verdict
from benchmarks.servers import ROOT, fast_emulator

TITLE = "8. The emulator as a service"
SERVER_TARGET = 2.0
GROWTH_TARGET = 1.5
CLIENTS = (1, 4, 16)
OPERATIONS = {"GET one network": "/v2/vpc/networks/{id}", "create+delete": "create+delete"}


@contextmanager
def _werkzeug(emulator: Emulator) -> Iterator[str]:
    """The emulator's application under werkzeug's threaded development server."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, emulator.app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def _load(url: str, key: str, seconds: float, clients: int, path: str) -> float:
    answer = subprocess.run(
        [sys.executable, "-m", "benchmarks.load", url, key, str(seconds), str(clients), path,
         "reuse"],
        capture_output=True, text=True, check=True, timeout=seconds + 60, cwd=ROOT,
    )  # fmt: skip
    counts = json.loads(answer.stdout)
    assert counts["errors"] == 0, counts
    return float(counts["requests"]) / float(counts["seconds"])


def _servers(section: Section, quick: bool) -> Table:
    seconds, tries = (0.3, 1) if quick else (2.0, 3)
    table = Table(
        ["operation", "clients", "werkzeug dev server", "emulator's server", "ratio", "target",
         "verdict"],
        caption="Operations per second (a create+delete is one), clients in another process "
        "keeping their connection when the server allows; the best of interleaved runs.",
    )  # fmt: skip
    with fast_emulator() as emulator, _werkzeug(emulator) as dev_url:
        emulator.set_quota(network_count=10_000)
        network = _first_network(emulator)
        for name, path in OPERATIONS.items():
            path = path.format(id=network)
            for clients in CLIENTS:
                rates: dict[str, list[float]] = {"dev": [], "emulator": []}
                for _ in range(tries):
                    rates["dev"].append(_load(dev_url, emulator.api_key, seconds, clients, path))
                    rates["emulator"].append(
                        _load(emulator.api_url, emulator.api_key, seconds, clients, path)
                    )
                dev, ours = max(rates["dev"]), max(rates["emulator"])
                ratio = ours / dev
                judged = verdict(ratio >= SERVER_TARGET) if clients == CLIENTS[-1] else INFO
                target = f"≥ {SERVER_TARGET:g}x" if clients == CLIENTS[-1] else ""
                table.add(
                    name, clients, f"{dev:.0f}/s", f"{ours:.0f}/s", f"{ratio:.2f}x", target,
                    judged,
                )  # fmt: skip
                section.data[f"{name}.{clients}"] = {"dev": dev, "emulator": ours, "ratio": ratio}
    return table


def _first_network(emulator: Emulator) -> str:
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
        return api.networks.list()[0].id


def _fill(emulator: Emulator, kind: str, total: int) -> None:
    """Networks (the default one included) or firewalls in LON1 up to ``total``, straight into
    the state (as a request would make them, without their answers)."""
    state = emulator.state
    account = state.default_account
    with state.lock:
        if kind == "network":
            have = len(state.networks.all(account.id, "LON1"))
            for number in range(have, total):
                fields = NetworkCreate(label=f"fill-{number}")
                state.networks.create(account.id, "LON1", Effects(), fields)
            return
        network = state.networks.all(account.id, "LON1")[0].id
        have = len(state.firewalls.all(account.id, "LON1"))
        for number in range(have, total):
            made = FirewallCreate(name=f"fill-{number}", network_id=network)
            state.firewalls.create(account.id, "LON1", Effects(), made)


def _create_and_delete(api: Client, kind: str, number: int, network: str) -> float:
    """Seconds the create of one ``kind`` took; it is deleted again (untimed)."""
    started = time.perf_counter()
    if kind == "network":
        made: Any = api.networks.create(label=f"timed-{number}")
    else:
        made = api.firewalls.create(name=f"timed-{number}", network_id=network)
    took = time.perf_counter() - started
    (api.networks if kind == "network" else api.firewalls).delete(made.id)
    return took


#: What is created, and whether the emulator keeps its state in a folder (``--state-dir``).
GROWTH_CASES = (("network", False), ("firewall", False), ("network", True))


def _growth(section: Section, quick: bool) -> Table:
    sizes = (10, 1000) if quick else (10, 10_000)
    table = Table(
        ["create", "state", "nth of the region", "create (median)", "ratio", "target", "verdict"],
        caption="Creating the account's nth network (range handed out by the emulator) or "
        "firewall (name checked) of a region through the client; each is deleted again before "
        "the next is timed. With --state-dir, every change is saved before it is answered.",
    )
    for kind, kept in GROWTH_CASES:
        count = (5 if quick else 10) if kept else (20 if quick else 200)
        with tempfile.TemporaryDirectory() as folder:
            emulator = fast_emulator(state_dir=folder if kept else None)
            with emulator:
                emulator.set_quota(
                    network_count=max(sizes) + 10,
                    security_group=max(sizes) + 10,
                    security_group_rule=3 * max(sizes) + 10,
                )
                with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
                    network = api.networks.list()[0].id
                    took: dict[int, float] = {}
                    for size in sizes:
                        _fill(emulator, kind, size - 1)
                        took[size] = median(
                            [_create_and_delete(api, kind, n, network) for n in range(count)]
                        )
                        ratio = took[size] / took[sizes[0]]
                        first = size == sizes[0]
                        table.add(
                            kind, "--state-dir" if kept else "in memory", f"{size:,}th",
                            f"{took[size] * 1000:.2f} ms", "" if first else f"{ratio:.2f}x",
                            "" if first else f"≤ {GROWTH_TARGET:g}x",
                            INFO if first else verdict(ratio <= GROWTH_TARGET),
                        )  # fmt: skip
                        where = ".state_dir" if kept else ""
                        section.data[f"{kind}{where}.{size}"] = took[size]
    return table


def _memory(section: Section, quick: bool) -> Table:
    count = 200 if quick else 1000
    table = Table(
        ["records", "memory per 1,000", "left after reset"],
        caption=f"Memory the emulator holds for {count:,} records of a kind (tracemalloc), and "
        "what of it a reset leaves.",
    )
    with fast_emulator() as emulator:
        wsgi = WsgiClient(emulator.app)
        headers = {"Authorization": f"Bearer {emulator.api_key}"}
        kinds: dict[str, Any] = {
            "networks": ("/v2/vpc/networks", lambda n: {"label": f"network-{n}"}),
            "firewalls": ("/v2/vpc/firewalls", lambda n: {"name": f"fw-{n}", "network_id": ...}),
            "webhooks": (
                "/v2/webhooks",
                lambda n: {"url": f"http://127.0.0.1:9/{n}", "events": ["*"], "secret": "s"},
            ),
        }
        for name, (path, body_of) in kinds.items():
            emulator.reset()
            account = emulator.state.default_account
            account.limits.update(
                network_count=count + 10,
                security_group=count + 10,
                security_group_rule=3 * count + 10,
            )
            network = _first_network(emulator)
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            for number in range(count):
                body = {k: network if v is ... else v for k, v in body_of(number).items()}
                answer = wsgi.post(path, json=body, headers=headers)
                assert answer.status_code == 200, answer.get_data(as_text=True)
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - before
            emulator.reset()
            gc.collect()
            left = tracemalloc.get_traced_memory()[0] - before
            tracemalloc.stop()
            per_thousand = held * 1000 / count
            table.add(name, f"{per_thousand / 1024:.0f} KiB", f"{max(left, 0) / 1024:.0f} KiB")
            section.data[f"memory.{name}"] = {"per_1000": per_thousand, "after_reset": left}
    return table


def run(quick: bool) -> Section:
    section = Section("service", TITLE)
    section.tables += [_servers(section, quick), _growth(section, quick), _memory(section, quick)]
    return section
