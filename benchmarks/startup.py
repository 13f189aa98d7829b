"""Section 5: start-up and state size. The import time of altostratus beyond pulumi itself, in
fresh interpreters, and the size of each provider as serialized into a resource's state."""

from __future__ import annotations

import json
from collections import defaultdict

from pulumi.dynamic.dynamic import serialize_provider

from benchmarks.interpreters import Interpreters
from benchmarks.measure import median
from benchmarks.report import INFO, Section, Table, verdict

TITLE = "5. Start-up and state size"
IMPORT_TARGET = 0.150
SIZE_TARGET = 200
# What a program does: import pulumi, import altostratus, use a resource class.
_PROGRAM = """
import json, time
started = time.perf_counter()
import pulumi
pulumi_done = time.perf_counter()
import altostratus
altostratus.Network
print(json.dumps([pulumi_done - started, time.perf_counter() - pulumi_done]))
"""


def _import_times(python: Interpreters) -> tuple[float, float]:
    pulumi, ours = json.loads(python.run("-c", _PROGRAM).stdout)
    return float(pulumi), float(ours)


def _biggest_imports(python: Interpreters, top: int) -> list[tuple[str, float]]:
    """Self time of the packages first imported after pulumi, from ``-X importtime``."""
    lines = python.run("-X", "importtime", "-c", _PROGRAM).stderr.splitlines()
    totals: dict[str, float] = defaultdict(float)
    after_pulumi = False
    for line in lines:
        if not line.startswith("import time:") or "|" not in line:
            continue
        own, _, name = (part.strip() for part in line.removeprefix("import time:").split("|"))
        if not own.isdigit():
            continue
        if after_pulumi:
            totals[name.split(".")[0]] += int(own) / 1e6
        elif name == "pulumi":
            after_pulumi = True
    return sorted(totals.items(), key=lambda item: -item[1])[:top]


def _provider_sizes() -> dict[str, int]:
    """Each resource class's provider, as the resource registers it (``__provider``)."""
    import altostratus.providers as resources

    sizes = {}
    for name in resources.__all__:
        resource = getattr(resources, name)
        provider_class = getattr(resource, "_provider_class", None)
        if provider_class is not None:
            sizes[name] = len(serialize_provider(provider_class()))
    return sizes


def run(quick: bool) -> Section:
    count = 1 if quick else 9
    section = Section("startup", TITLE)
    python = Interpreters()
    try:
        _import_times(python)  # once unmeasured: it writes the bytecode caches
        runs = [_import_times(python) for _ in range(count)]
        biggest = _biggest_imports(python, 6)
    finally:
        python.close()
    ours = median([r[1] for r in runs])
    table = Table(["figure", "value", "target", "verdict"])
    table.add(
        "import pulumi (for scale)", f"{median([r[0] for r in runs]) * 1000:.0f} ms", "", INFO
    )
    table.add(
        "import altostratus beyond pulumi",
        f"{ours * 1000:.0f} ms",
        f"< {IMPORT_TARGET * 1000:.0f} ms",
        verdict(ours < IMPORT_TARGET),
    )
    sizes = _provider_sizes()
    largest = max(sizes.values())
    table.add(
        "serialized provider in state (largest)",
        f"{largest} bytes",
        f"< {SIZE_TARGET} bytes",
        verdict(largest < SIZE_TARGET),
    )
    section.tables.append(table)
    imports = Table(
        ["package", "own import time"],
        caption="Where the import time beyond pulumi goes (one run with -X importtime).",
    )
    for package, seconds in biggest:
        imports.add(package, f"{seconds * 1000:.1f} ms")
    section.tables.append(imports)
    section.notes.append(f"median of {count} fresh interpreters; provider sizes: {sizes}")
    section.data = {"import": ours, "sizes": sizes, "runs": runs}
    return section
