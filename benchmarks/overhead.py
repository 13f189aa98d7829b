"""Section 2: a provider's create, read, update and delete, called directly, beside raw httpx
sending the same requests; interleaved, the ratio of medians.

Each call's time is also split at ``httpx.Client.send``: what is left once the exchange (sending,
waiting, reading the answer's bytes) is taken out is the work done in this process on both ends of
it: building the request and decoding the answer, and for the provider the client's models and
the provider's outputs. That split is steady where the
end-to-end ratio carries the emulator's noise.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from benchmarks.measure import median, ms, ratio_text, rounds, us
from benchmarks.raw import KINDS, Kind, raw_client
from benchmarks.report import Section, Table, verdict
from benchmarks.servers import configure_providers, fast_emulator

TITLE = "2. Provider overhead"
TARGET = 1.10
STEPS = ("create", "read", "update", "delete")
Times = dict[str, list[float]]


class _Exchanges:
    """Time spent inside ``httpx.Client.send`` (the exchange), summed over this process."""

    seconds = 0.0
    _original = httpx.Client.send

    @classmethod
    def install(cls) -> None:
        original = cls._original

        def send(client: httpx.Client, request: httpx.Request, **options: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(client, request, **options)
            finally:
                cls.seconds += time.perf_counter() - started

        httpx.Client.send = send  # type: ignore[method-assign, assignment]

    @classmethod
    def remove(cls) -> None:
        httpx.Client.send = cls._original  # type: ignore[method-assign]


def _clock(action: Callable[[], Any], into: list[float], local: list[float]) -> None:
    exchanged = _Exchanges.seconds
    started = time.perf_counter()
    action()
    elapsed = time.perf_counter() - started
    into.append(elapsed)
    local.append(elapsed - (_Exchanges.seconds - exchanged))


class _ProviderSide:
    def __init__(self, kind: Kind) -> None:
        self.provider = kind.provider
        self.news = {**kind.inputs, "__name_prefix": "bench"}
        self.update = kind.update

    def steps(self) -> dict[str, Callable[[], Any]]:
        """The lifecycle's steps, to be called in order; each may use the ones before."""
        provider, held = self.provider, dict[str, Any]()
        checked = provider.check({}, self.news).inputs
        changed = provider.check(checked, {**self.news, **self.update}).inputs

        def create() -> None:
            held["created"] = provider.create(checked)

        def update() -> None:
            created = held["created"]
            held["outs"] = provider.update(created.id, created.outs, changed).outs

        return {
            "create": create,
            "read": lambda: provider.read(held["created"].id, held["created"].outs),
            "update": update,
            "delete": lambda: provider.delete(held["created"].id, held["outs"]),
        }


def _raw_steps(kind: Kind, http: httpx.Client) -> dict[str, Callable[[], Any]]:
    held: dict[str, Any] = {}

    def create() -> None:
        held["handle"] = kind.create(http)

    return {
        "create": create,
        "read": lambda: kind.read(http, held["handle"]),
        "update": lambda: kind.change(http, held["handle"]),
        "delete": lambda: kind.delete(http, held["handle"]),
    }


def _times() -> Times:
    return {step: [] for step in STEPS}


def _compare(kind: Kind, http: httpx.Client, count: int, seconds: float) -> list[Times]:
    """Both lifecycles step by step, each step of one side right beside the same step of the
    other, the side going first alternating. Returns the provider's and raw times, whole and
    in-process."""
    side = _ProviderSide(kind)
    provider, raw, provider_local, raw_local = _times(), _times(), _times(), _times()
    for number in rounds(count + 2, seconds):
        ours, theirs = side.steps(), _raw_steps(kind, http)
        for index, step in enumerate(STEPS):
            pair = [
                (ours[step], provider[step], provider_local[step]),
                (theirs[step], raw[step], raw_local[step]),
            ]
            if (number + index) % 2:
                pair.reverse()
            for action, into, local in pair:
                _clock(action, into, local)
    found = [provider, raw, provider_local, raw_local]
    for times in found:  # the first two rounds warm both paths up
        for step in STEPS:
            del times[step][:2]
    return found


def run(quick: bool) -> Section:
    count, seconds = (4, 2.0) if quick else (150, 12.0)
    section = Section("overhead", TITLE)
    headers = ["resource", "operation", "provider", "raw httpx", "in-process (provider / raw)"]
    table = Table(
        [*headers, "ratio", "target", "verdict"],
        caption="Median time per operation against the in-process emulator.",
    )
    _Exchanges.install()
    try:
        with fast_emulator() as emulator:
            emulator.set_quota(
                network_count=1000,
                public_ip_address=1000,
                loadbalancer_count=1000,
                security_group=1000,
                security_group_rule=10_000,
            )
            configure_providers(emulator.api_url, emulator.api_key)
            with raw_client(emulator.api_url, emulator.api_key) as http:
                for kind in KINDS:
                    provider, raw, ours, theirs = _compare(kind, http, count, seconds)
                    for step in STEPS:
                        figures = {
                            "provider": median(provider[step]),
                            "raw": median(raw[step]),
                            "provider_in_process": median(ours[step]),
                            "raw_in_process": median(theirs[step]),
                            "rounds": len(provider[step]),
                        }
                        ratio = figures["ratio"] = figures["provider"] / figures["raw"]
                        local = f"{us(figures['provider_in_process'])} / "
                        table.add(
                            kind.name,
                            step,
                            ms(figures["provider"]),
                            ms(figures["raw"]),
                            local + us(figures["raw_in_process"]),
                            ratio_text(ratio),
                            f"≤ {TARGET:.2f}",
                            verdict(ratio <= TARGET),
                        )
                        section.data[f"{kind.name}.{step}"] = figures
    finally:
        _Exchanges.remove()
    rounds_run = min(v["rounds"] for v in section.data.values())
    section.notes.append(
        f"{rounds_run} or more interleaved rounds per resource; in-process: the time outside "
        "httpx.Client.send (the exchange)"
    )
    section.tables.append(table)
    return section
