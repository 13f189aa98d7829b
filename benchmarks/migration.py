"""Section 16: ``altostratus migrate`` as the state grows. A Terraform state of 1 000 and
10 000 resources, all carried (networks and their firewalls), none carried (instances, each on a
network of another state or on the instance before it), and half of each (each instance on a
carried network): the time to read it, translate it and write the project, per resource.

The work is the command's own (``read_source``, ``migrate``, ``write_project``), in this
process, into a temporary folder; nothing calls the service. Linear work keeps the time per
resource flat from 1 000 to 10 000, and the Python calls per resource (counted once, under
``cProfile``, whatever else the machine does) the same.
"""

from __future__ import annotations

import cProfile
import gc
import json
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

from altostratus.migrate import migrate, read_source, write_project
from benchmarks.measure import median, rounds
from benchmarks.report import INFO, Section, Table, verdict

TITLE = "16. `altostratus migrate` as the state grows"
LINEAR_TARGET = 2.0
"""Time per resource at 10 000 against 1 000: linear work keeps it near 1x (a larger heap costs
the collector and the caches a little); a pass over every pair of resources would make it 10x."""
MIXES = ("all carried", "none carried", "half each")


def _network(number: int) -> dict[str, Any]:
    return {
        "address": f"civo_network.net[{number}]",
        "mode": "managed",
        "type": "civo_network",
        "name": "net",
        "index": number,
        "values": {
            "id": f"n-{number}",
            "label": f"net-{number}",
            "region": "LON1",
            "cidr_v4": f"10.{number // 256 % 256}.{number % 256}.0/24",
            "nameservers_v4": ["8.8.8.8"],
        },
    }


def _firewall(number: int) -> dict[str, Any]:
    rule = {"id": f"r-{number}", "protocol": "tcp", "port_range": "443", "label": "https"}
    return {
        "address": f"civo_firewall.web[{number}]",
        "mode": "managed",
        "type": "civo_firewall",
        "name": "web",
        "index": number,
        "values": {
            "id": f"f-{number}",
            "name": f"web-{number}",
            "network_id": f"n-{number}",
            "region": "LON1",
            "create_default_rules": False,
            "ingress_rule": [rule],
        },
        "depends_on": ["civo_network.net"],
    }


def _instance(number: int, network: str) -> dict[str, Any]:
    used = f"i-{number - 1}" if number else "n-outside"
    return {
        "address": f"civo_instance.vm[{number}]",
        "mode": "managed",
        "type": "civo_instance",
        "name": "vm",
        "index": number,
        "values": {
            "id": f"i-{number}",
            "hostname": f"vm-{number}",
            "network_id": network or used,
            "script": "#!/bin/sh\necho ready\n",
        },
        "depends_on": ["civo_network.net"] if network else [],
    }


def state(size: int, mix: str) -> str:
    """A ``terraform show -json`` document of ``size`` resources of the ``mix``."""
    resources: list[dict[str, Any]] = []
    if mix == "all carried":
        for number in range(size // 2):
            resources += [_network(number), _firewall(number)]
    elif mix == "none carried":
        resources = [_instance(number, "") for number in range(size - 1)]
        resources.append(_network(0))  # something to adopt, or nothing is written
    else:
        networks = size // 2
        resources = [_network(number) for number in range(networks)]
        resources += [_instance(number, f"n-{number}") for number in range(size - networks)]
    document = {"format_version": "1.0", "values": {"root_module": {"resources": resources}}}
    return json.dumps(document)


def _once(text: str, folder: Path) -> tuple[float, int, int]:
    gc.collect()  # the garbage of the run before is not this run's
    started = time.perf_counter()
    migration = migrate(read_source(text))
    write_project(migration, folder, replace=True)
    took = time.perf_counter() - started
    return took, len(migration.declarations), len(migration.left)


def _calls(text: str, folder: Path) -> int:
    """Python function calls of one migration: a figure no other load on the machine moves."""
    profile = cProfile.Profile()
    profile.enable()
    write_project(migrate(read_source(text)), folder, replace=True)
    profile.disable()
    return int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]


def run(quick: bool) -> Section:
    sizes = (100, 1000) if quick else (1000, 10_000)
    count, seconds = (2, 2.0) if quick else (7, 60.0)
    section = Section("migrate", TITLE)
    table = Table(
        ["state", "resources", "declared", "not carried", "calls per resource", "time",
         "per resource", "growth per resource", "target", "verdict"],
        caption="`read_source`, `migrate` and `write_project` of a Terraform state; median "
        "time, the sizes measured in turn.",
    )  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        for mix in MIXES:
            texts = {size: state(size, mix) for size in sizes}
            times: dict[int, list[float]] = {size: [] for size in sizes}
            counts: dict[int, tuple[int, int]] = {}
            for number in rounds(count, seconds):
                for size in sizes if number % 2 == 0 else reversed(sizes):
                    took, declared, left = _once(texts[size], Path(folder) / "out")
                    times[size].append(took)
                    counts[size] = (declared, left)
            per = {size: median(times[size]) / size for size in sizes}
            calls = {size: _calls(texts[size], Path(folder) / "out") / size for size in sizes}
            for size in sizes:
                took = median(times[size])
                growth = per[size] / per[sizes[0]] if size != sizes[0] else None
                judged = INFO if growth is None else verdict(growth <= LINEAR_TARGET)
                table.add(
                    mix, f"{size:,}", *counts[size], f"{calls[size]:.0f}", f"{took * 1000:.0f} ms",
                    f"{per[size] * 1e6:.0f} µs",
                    "" if growth is None else f"{growth:.2f}x the {sizes[0]:,} figure",
                    "" if growth is None else f"≤ {LINEAR_TARGET:g}x", judged,
                )  # fmt: skip
                section.data[f"{mix} {size}"] = {
                    "seconds": took,
                    "declared": counts[size][0],
                    "left": counts[size][1],
                    "rounds": len(times[size]),
                    "calls_per_resource": calls[size],
                }
    section.tables.append(table)
    return section
