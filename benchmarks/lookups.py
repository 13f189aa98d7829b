"""Section 10: what a lookup costs a program: its requests, and its time beside the one list
request a hand-written lookup would send, as the account grows."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

import pulumi.runtime

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import EmulatorControls
from benchmarks.measure import interleave, median, ms, ratio_text, timed
from benchmarks.report import Section, Table
from benchmarks.servers import fast_emulator

TITLE = "10. Lookups"
BACKEND = {"ip": "10.0.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}


def _requests(emulator: EmulatorControls, lookup: Callable[[], object]) -> list[str]:
    emulator.clear_requests()
    lookup()
    sent = []
    for entry in emulator.requests():
        path = re.sub(r"/[0-9a-f]{8}-[0-9a-f-]{27}", "/{id}", entry["path"])
        sent.append(f"{entry['method']} {path}")
    return sent


def _populate(api: Client, networks: int) -> dict[str, Any]:
    made = [api.networks.create(label=f"net-{n}") for n in range(networks)]
    firewall = api.firewalls.create(name="edge", network_id=made[0].id)
    balancer = api.load_balancers.create(name="web", network_id=made[0].id, backends=[BACKEND])
    address = api.reserved_ips.create(name="web-ip")
    return {"network": made[-1], "firewall": firewall, "balancer": balancer, "address": address}


def _lookups(made: dict[str, Any]) -> dict[str, Callable[[], object]]:
    network = made["network"]
    return {
        "get_network(id=...)": lambda: alto.get_network(id=network.id),
        "get_network(label=...)": lambda: alto.get_network(label=network.label),
        "get_network(default=True)": lambda: alto.get_network(default=True),
        "get_firewall(name=...)": lambda: alto.get_firewall(name="edge"),
        "get_load_balancer(name=...)": lambda: alto.get_load_balancer(name="web"),
        "get_reserved_ip(name=...)": lambda: alto.get_reserved_ip(name="web-ip"),
        "get_quota()": alto.get_quota,
    }


def run(quick: bool) -> Section:
    section = Section("lookups", TITLE)
    sizes = (5, 20) if quick else (10, 250)
    count, seconds = (5, 2.0) if quick else (60, 15.0)
    requests = Table(["lookup", "requests", "sent"], caption="Requests of one lookup.")
    timing = Table(
        ["networks in the region", "get_network(label=...)", "one list request", "ratio"],
        caption="Median time of a lookup by label beside the bare list it filters.",
    )
    with fast_emulator() as emulator:
        config = {"altostratus:apiKey": emulator.api_key, "altostratus:apiUrl": emulator.api_url}
        pulumi.runtime.set_all_config(config, ["altostratus:apiKey"])
        with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
            for size in sizes:
                emulator.reset()
                emulator.set_quota(network_count=size + 10)
                made = _populate(api, size)
                lookups = _lookups(made)
                if size == sizes[0]:
                    for name, lookup in lookups.items():
                        sent = _requests(emulator, lookup)
                        requests.add(name, len(sent), ", ".join(sent))
                        section.data[name] = sent
                label = str(made["network"].label)

                def bare(label: str = label) -> object:
                    return [n for n in api.networks.list() if n.label == label]

                by_label = lookups["get_network(label=...)"]
                pair = interleave(partial(timed, by_label), partial(timed, bare), count, seconds)
                lookup_s, list_s = median(pair.measured), median(pair.baseline)
                timing.add(size, ms(lookup_s), ms(list_s), ratio_text(pair.ratio))
                section.data[f"label_lookup_{size}"] = {
                    "lookup_s": lookup_s,
                    "list_s": list_s,
                    "ratio": pair.ratio,
                }
    section.tables += [requests, timing]
    section.notes.append(
        "A lookup by key lists the region and reads the one match again by id, because list "
        "answers may carry less than a read (a reserved IP's assignment is answered by a read "
        "only): one request more than the bare list, the price of complete results."
    )
    return section
