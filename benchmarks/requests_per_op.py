"""Section 1: the API requests each provider operation makes, from the emulator's request log,
beside the floor the API allows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from altostratus.client import Client
from altostratus.emulator import EmulatorControls
from benchmarks.floors import FLOORS, OPERATIONS
from benchmarks.report import Section, Table, verdict
from benchmarks.servers import (
    configure_providers,
    fast_emulator,
    test_module,
)

TITLE = "1. Requests per operation"
_HEADINGS = {"diff": "no-change diff"}


def _counting(
    emulator: EmulatorControls,
) -> Callable[[Callable[[], Any]], tuple[Any, list[str]]]:
    def count(action: Callable[[], Any]) -> tuple[Any, list[str]]:
        emulator.clear_requests()
        result = action()
        return result, [f"{e['method']} {e['path']}" for e in emulator.requests()]

    return count


def _lifecycle(scenario: Any, api: Client, emulator: EmulatorControls) -> dict[str, list[str]]:
    """Create, no-change diff, update, read and delete one resource; the requests of each."""
    dependencies = test_module("scenarios").dependencies
    count = _counting(emulator)
    provider = scenario.provider
    deps = dependencies(api, scenario.needs)
    news = {**scenario.inputs(deps), "__name_prefix": scenario.name}
    checked = provider.check({}, news)
    assert not checked.failures, checked.failures
    created, made = count(lambda: provider.create(checked.inputs))
    sent = {"create": made}
    id_, outs = created.id, created.outs
    same = provider.check(checked.inputs, news)
    diff, sent["diff"] = count(lambda: provider.diff(id_, outs, same.inputs))
    assert diff.changes is False, f"{scenario.name}: the same inputs show changes"
    changed = provider.check(checked.inputs, {**news, **scenario.update(deps)})
    updated, sent["update"] = count(lambda: provider.update(id_, outs, changed.inputs))
    live, sent["read"] = count(lambda: provider.read(id_, updated.outs))
    assert live.id == id_, f"{scenario.name}: read lost the resource"
    _, sent["delete"] = count(lambda: provider.delete(id_, live.outs))
    return sent


def run(quick: bool) -> Section:
    scenarios = test_module("scenarios").SCENARIOS
    section = Section("requests", TITLE)
    headers = ["resource", *(_HEADINGS.get(op, op) for op in OPERATIONS), "target", "verdict"]
    table = Table(headers, caption="Requests made (the floor where it differs).")
    with fast_emulator() as emulator:
        configure_providers(emulator.api_url, emulator.api_key)
        with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
            for scenario in scenarios:
                emulator.reset()
                sent = _lifecycle(scenario, api, emulator)
                floors = FLOORS[scenario.name]
                cells = []
                for op in OPERATIONS:
                    made, floor = len(sent[op]), floors[op].requests
                    cells.append(str(made) if made == floor else f"{made} (floor {floor})")
                    if made != floor:
                        section.notes.append(
                            f"{scenario.name} {op}: {made} requests, floor {floor}: "
                            + ", ".join(sent[op])
                        )
                at_floor = all(len(sent[op]) == floors[op].requests for op in OPERATIONS)
                table.add(scenario.name, *cells, "the floor", verdict(at_floor))
                section.data[scenario.name] = {
                    op: {"requests": sent[op], "floor": floors[op].requests} for op in OPERATIONS
                }
    reasons = Table(["resource", "operation", "floor", "why"], caption="The floors.")
    for name, floors in FLOORS.items():
        for op in OPERATIONS[:-1]:
            reasons.add(name, op, floors[op].requests, floors[op].reason)
    reasons.add("every resource", _HEADINGS["diff"], 0, FLOORS["network"]["diff"].reason)
    section.tables += [table, reasons]
    return section
