"""Section 2: a provider's create, read, update and delete, called directly, beside raw httpx
sending the same requests; interleaved, the ratio of medians."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from benchmarks.measure import median, ms, ratio_text, rounds
from benchmarks.raw import KINDS, Kind, raw_client
from benchmarks.report import Section, Table, verdict
from benchmarks.servers import configure_providers, fast_emulator, raise_quota

TITLE = "2. Provider overhead"
TARGET = 1.10
STEPS = ("create", "read", "update", "delete")
Times = dict[str, list[float]]


def _clock(action: Callable[[], Any], into: list[float]) -> Any:
    started = time.perf_counter()
    result = action()
    into.append(time.perf_counter() - started)
    return result


def _provider_side(kind: Kind, times: Times) -> None:
    provider = kind.provider
    news = {**kind.inputs, "__name_prefix": "bench"}
    checked = provider.check({}, news).inputs
    created = _clock(lambda: provider.create(checked), times["create"])
    id_, outs = created.id, created.outs
    _clock(lambda: provider.read(id_, outs), times["read"])
    changed = provider.check(checked, {**news, **kind.update}).inputs
    updated = _clock(lambda: provider.update(id_, outs, changed), times["update"])
    _clock(lambda: provider.delete(id_, updated.outs), times["delete"])


def _raw_side(kind: Kind, http: httpx.Client, times: Times) -> None:
    handle = _clock(lambda: kind.create(http), times["create"])
    _clock(lambda: kind.read(http, handle), times["read"])
    _clock(lambda: kind.change(http, handle), times["update"])
    _clock(lambda: kind.delete(http, handle), times["delete"])


def _compare(kind: Kind, http: httpx.Client, count: int, seconds: float) -> tuple[Times, Times]:
    provider: Times = {step: [] for step in STEPS}
    raw: Times = {step: [] for step in STEPS}
    for _ in range(2):  # warm both paths (connections, first imports) before measuring
        _provider_side(kind, {step: [] for step in STEPS})
        _raw_side(kind, http, {step: [] for step in STEPS})
    for number in rounds(count, seconds):
        if number % 2 == 0:
            _provider_side(kind, provider)
            _raw_side(kind, http, raw)
        else:
            _raw_side(kind, http, raw)
            _provider_side(kind, provider)
    return provider, raw


def run(quick: bool) -> Section:
    count, seconds = (4, 2.0) if quick else (60, 15.0)
    section = Section("overhead", TITLE)
    table = Table(
        ["resource", "operation", "provider", "raw httpx", "ratio", "target", "verdict"],
        caption="Median time per operation against the in-process emulator.",
    )
    with fast_emulator() as emulator:
        raise_quota(emulator.api_url, network_count=1000, public_ip_address=1000)
        configure_providers(emulator.api_url, emulator.api_key)
        with raw_client(emulator.api_url, emulator.api_key) as http:
            for kind in KINDS:
                provider, raw = _compare(kind, http, count, seconds)
                for step in STEPS:
                    ratio = median(provider[step]) / median(raw[step])
                    table.add(
                        kind.name,
                        step,
                        ms(median(provider[step])),
                        ms(median(raw[step])),
                        ratio_text(ratio),
                        f"≤ {TARGET:.2f}",
                        verdict(ratio <= TARGET),
                    )
                    section.data[f"{kind.name}.{step}"] = {
                        "provider": median(provider[step]),
                        "raw": median(raw[step]),
                        "ratio": ratio,
                        "rounds": len(provider[step]),
                    }
    rounds_run = min(v["rounds"] for v in section.data.values())
    section.notes.append(f"{rounds_run} or more interleaved rounds per resource")
    section.tables.append(table)
    return section
