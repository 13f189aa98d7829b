"""The benchmarks run end to end: a quick run writes every section, at sensible figures.

Timings are never asserted here; only what a quick run must show whatever the machine.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.real_engine import engine_missing

ROOT = Path(__file__).resolve().parent.parent
TITLES = [
    "1. Requests per operation",
    "2. Provider overhead",
    "3. A stack through the engine's path",
    "4. Readiness waits",
    "5. Start-up and state size",
    "6. S3 throughput",
    "7. Growth",
    "8. The emulator as a service",
    "9. Testing a program: up + destroy through altostratus.testing",
    "10. Lookups",
    "11. `altostratus run` on each example",
    "12. Calls at once: a burst of slow creates",
    "13. Answers beside the framework floor",
    "14. Restarting a large state folder",
    "15. A user's test session: the first test and the next",
    "16. `altostratus migrate` as the state grows",
    "17. Real operations under the real engine",
]


@pytest.mark.slow
@pytest.mark.timeout(480)
def test_a_quick_run_reports_every_section_with_sensible_figures(tmp_path: Path) -> None:
    report, figures = tmp_path / "benchmarks.md", tmp_path / "benchmarks.json"
    env = {k: v for k, v in os.environ.items() if k != "ALTOSTRATUS_BENCH_BRIDGED"}
    subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--output", str(report),
         "--json", str(figures)],
        cwd=ROOT, check=True, capture_output=True, timeout=420, env=env,
    )  # fmt: skip
    text = report.read_text()
    for title in TITLES:
        assert f"## {title}" in text
    assert "python -m benchmarks --quick" in text and "cores" in text
    sections = {section["key"]: section for section in json.loads(figures.read_text())}
    assert [s["title"] for s in sections.values()] == TITLES

    requests = sections["requests"]["data"]
    assert len(requests) == 8
    for resource, operations in requests.items():
        for operation, found in operations.items():
            assert len(found["requests"]) == found["floor"], (resource, operation, found)

    for figures_of in (sections["overhead"]["data"], sections["s3"]["data"]):
        assert all(v["ratio"] > 0 and math.isfinite(v["ratio"]) for v in figures_of.values())
    stack = sections["stack"]["data"]
    for latency in ("0 ms", "50 ms"):
        made = stack[f"{latency}.requests"]
        assert made["engine"] == made["raw"] > 0

    for waited in sections["readiness"]["data"].values():
        assert 1 <= waited["polls"] < 10 and waited["late"] >= 0

    startup = sections["startup"]["data"]
    assert startup["import"] > 0 and len(startup["sizes"]) == 8
    assert all(0 < size < 200 for size in startup["sizes"].values())

    growth = sections["growth"]["data"]
    for size, found in growth.items():
        assert found["requests"] == max(1, math.ceil(int(size) / 100))
        assert found["get_one_per_second"] > 0

    testing = sections["testing"]["data"]
    examples = [name for name in testing if name != "all"]
    assert len(examples) == 5
    for name in examples:
        assert testing[name]["requests"] > 0, name
        assert testing[name]["testing"] > 0 and testing[name]["raw"] > 0, name

    ran = dict(sections["run_command"]["data"])
    replayed = ran.pop("replay")
    assert replayed["requests"] > 0 and math.isfinite(replayed["ratio"])
    assert all(replayed[side] > 0 for side in ("run", "floor", "floor and SDK", "interpreter"))
    (example,) = ran.values()
    assert example["resources"] > 0 and example["wall"] > example["up"] + example["destroy"] > 0

    answers = sections["answers"]["data"]
    cpu = {name: answers.pop(name) for name in ("cpu.1", "cpu.16")}
    assert set(answers) == {"get", "list of 100", "create + delete"}
    assert all(found["share"] > 0 and found["rounds"] > 0 for found in answers.values())
    assert all(0 < found["floor"] < found["emulator"] < 1 for found in cpu.values()), cpu
    (restarted,) = sections["restarts"]["data"].values()
    assert all(restarted[name] > 0 for name in ("floor", "stop", "clean", "killed"))
    assert sections["s3"]["data"]["fill"]["keys"] == [100, 300]

    session = sections["fixture_session"]["data"]
    assert session["rounds"] >= 1
    assert session["first"] >= session["first_setup"] + session["first_call"] > 0
    assert session["next"] > 0 and session["floor"] > 0

    migrated = sections["migrate"]["data"]
    assert len(migrated) == 6 and all(found["seconds"] > 0 for found in migrated.values())
    assert migrated["half each 1000"]["declared"] == migrated["half each 1000"]["left"] == 500
    for mix in ("all carried", "none carried", "half each"):  # linear: the same calls each
        small, large = (migrated[f"{mix} {size}"]["calls_per_resource"] for size in (100, 1000))
        assert large <= small * 1.1, mix

    burst = sections["parallel"]["data"]
    assert burst["rounds"] >= 1 and burst["engine"] > 0 and burst["raw"] > 0
    assert burst["requests"]["engine"] > 0 and burst["requests"]["raw"] > 0
    assert math.isfinite(burst["check_median"]) and burst["check_median"] > 0

    engine = sections["engine"]["data"]
    if engine_missing() is not None:
        assert not engine and "not measured" in sections["engine"]["notes"][0]
        return
    assert "altostratus" in engine["versions"]["ours"] and "v3." in engine["versions"]["cli"]
    # Without its folder named, the bridged provider is said not measured, and given no row.
    notes = sections["engine"]["notes"]
    assert any(n.startswith("the bridged provider was not measured: set") for n in notes)
    assert "bridged" not in engine["versions"] and "| ours ÷ bridged |" not in text
    assert "provider plugin" in engine["versions"]["plugin"]
    (stack,) = (engine[name] for name in engine if name != "versions")
    assert stack["requests"]["up"] > 0 and stack["requests"]["destroy"] > 0
    assert stack["requests"]["preview"] == 0  # a preview with no changes asks the service nothing
    assert all(0 < size < 100_000 for size in stack["state"].values())
    assert set(stack["state"]) == {"ours", "plugin", "floor", "sdk"}
    for operation in ("up", "preview", "refresh", "update", "destroy"):
        found = stack[operation]
        assert all(found[side] > 0 for side in ("ours", "plugin", "floor", "sdk"))
        assert found["ratio"] > 0 and math.isfinite(found["ratio"])
        assert found["plugin_ratio"] > 0 and math.isfinite(found["plugin_ratio"])
        assert math.isclose(found["plugin_vs_dynamic"], found["plugin"] / found["ours"])
        assert set(found["phases"]) == {"ours", "plugin", "floor"}
        for side, phases in found["phases"].items():  # the split accounts for the whole run
            assert math.isclose(sum(phases.values()), found[side], rel_tol=0.01), (side, phases)
        assert found["phases"]["ours"]["provider start"] > 0
        assert found["phases"]["plugin"]["provider start"] > 0


def test_the_real_operations_refuse_to_report_a_side_that_failed(tmp_path: Path) -> None:
    """A replay answered otherwise than its recording, or a run that left no trace, stops the
    section instead of giving a figure."""
    from benchmarks.engine_ops import Failed, _replay_operation, split
    from benchmarks.replay import Exchange, raw_client
    from benchmarks.servers import fast_emulator

    recorded = Exchange("GET", "/v2/networks/gone", b"", "", status=200, answer=b"{}")
    with (
        fast_emulator() as emulator,
        raw_client(emulator.api_url, emulator.api_key) as http,
        pytest.raises(Failed, match="the raw replay was answered \\[404\\]"),
    ):
        _replay_operation(http, [recorded], {})
    (tmp_path / "trace.json").write_text("")
    with pytest.raises(Failed, match="no trace"):
        split(tmp_path / "trace.json", 0.0, 1.0)


def test_a_trace_splits_a_run_counting_each_instant_once(tmp_path: Path) -> None:
    from benchmarks.engine_ops import split

    def span(name: str, start: float, end: float, **attributes: str) -> dict[str, object]:
        return {
            "name": name,
            "startTimeUnixNano": str(int((100 + start) * 1e9)),
            "endTimeUnixNano": str(int((100 + end) * 1e9)),
            "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attributes.items()],
        }

    spans = [
        span("pulumi-plan", 0.3, 0.95),
        span("newPlugin", 0.4, 0.5, prefix="pulumi-python (resource)"),
        span("newPlugin", 0.31, 0.33, prefix="python"),  # the language host: the engine's
        span("pulumirpc.ResourceProvider/Configure", 0.5, 0.51),
        span("pulumirpc.ResourceProvider/Read", 0.51, 0.7),
        span("pulumirpc.ResourceProvider/Read", 0.6, 0.8),  # at once with the first
    ]
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}) + "\n")
    found = split(trace, 100.0, 101.0)
    expected = {"CLI start": 0.3, "provider start": 0.1, "Configure": 0.01, "calls": 0.29,
                "the rest": 0.3}  # fmt: skip
    assert found == pytest.approx(expected, abs=1e-6)


def _figures(walls: dict[str, float]) -> Any:
    """Synthetic figures of the 5-resource stack: ``walls`` by side (every operation alike but
    ``refresh``, given as ``side.refresh``), two rounds each, the split's phases even."""
    from benchmarks.engine_ops import OPERATIONS, PHASES, Figures, Run

    figures = Figures()
    for side in ("ours", "plugin", "floor", "sdk", "raw", "bridged"):
        for operation in OPERATIONS:
            wall = walls.get(f"{side}.{operation}", walls.get(side))
            if wall is None:
                continue
            phases = {} if side == "raw" else {p: wall / len(PHASES) for p in PHASES}
            for _ in range(2):
                figures.add(f"{side}.{operation}", Run(wall, phases))
    sides = [s for s in ("ours", "plugin", "floor", "sdk", "bridged") if s in walls]
    extra = {"requests": dict.fromkeys(OPERATIONS, 5), "state": dict.fromkeys(sides, 1000.0)}
    return figures, extra


NAMED = {"cli": "Pulumi CLI v3", "ours": "ours 1", "plugin": "plugin 1", "floor": "floor 1",
         "sdk": "sdk 1", "raw": "httpx 1"}  # fmt: skip


def test_the_bridged_table_gives_each_front_end_its_verdict_beside_the_bridged_provider() -> None:
    from benchmarks.engine_ops import _tables
    from benchmarks.report import Section

    walls = {"ours": 0.8, "plugin": 1.1, "floor": 0.5, "sdk": 0.6, "raw": 0.01, "bridged": 1.0,
             "plugin.up": 1.0, "ours.refresh": 0.6, "plugin.refresh": 0.5,
             "bridged.refresh": 0.5}  # fmt: skip
    tables, data = _tables({"5": _figures(walls)}, {**NAMED, "bridged": "bridged 2.4.8"})
    (table,) = (t for t in tables if "bridged" in t.headers)
    rows = {row[1]: dict(zip(table.headers, row, strict=True)) for row in table.rows}
    assert list(rows) == ["up", "preview", "refresh", "update", "destroy"]
    up = rows["up"]
    assert (up["bridged"], up["ours (dynamic)"], up["plugin"]) == ("1.00 s", "0.80 s", "1.00 s")
    assert (up["ours ÷ bridged"], up["plugin ÷ bridged"], up["target"]) == ("0.80", "1.00", "≤ 1")
    assert (up["verdict, ours"], up["verdict, plugin"]) == ("pass", "pass")  # even is no slower
    # The 5-resource refresh must be quicker: the bridged provider faster misses, even misses.
    refresh = rows["refresh"]
    assert (refresh["ours ÷ bridged"], refresh["plugin ÷ bridged"]) == ("1.20", "1.00")
    assert refresh["target"] == "< 1"
    assert (refresh["verdict, ours"], refresh["verdict, plugin"]) == ("miss", "miss")
    assert (
        rows["update"]["plugin ÷ bridged"] == "1.10" and rows["update"]["verdict, plugin"] == "miss"
    )
    assert data["5"]["refresh"]["bridged"] == 0.5
    assert data["5"]["refresh"]["bridged_ratio"] == pytest.approx(1.2)
    assert data["5"]["up"]["plugin_bridged_ratio"] == pytest.approx(1.0)
    assert set(data["5"]["up"]["phases"]) == {"ours", "plugin", "floor", "bridged"}
    split = next(t for t in tables if "CLI start" in t.headers)
    assert [row[2] for row in split.rows[:4]] == ["ours", "plugin", "floor", "bridged"]
    state = tables[-1]
    assert state.headers[-1] == "state per resource, bridged" and state.rows[0][-1] == "1000 B"
    # Both verdicts of a row count in the section's summary.
    section = Section("engine", "17", tables=[table])
    assert section.verdicts.count("pass") == 5 and section.verdicts.count("miss") == 5


def test_without_the_bridged_side_the_section_gives_no_row_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchmarks.engine_ops import _tables, bridged_side

    walls = {"ours": 0.8, "plugin": 1.0, "floor": 0.5, "sdk": 0.6, "raw": 0.01}
    tables, data = _tables({"5": _figures(walls)}, NAMED)
    assert not any("bridged" in " ".join(t.headers) for t in tables)
    assert "bridged" not in data["5"]["refresh"] and "bridged_ratio" not in data["5"]["up"]
    assert set(data["5"]["up"]["phases"]) == {"ours", "plugin", "floor"}

    monkeypatch.delenv("ALTOSTRATUS_BENCH_BRIDGED", raising=False)
    side, note = bridged_side()
    assert side is None
    assert note.startswith("the bridged provider was not measured: set ALTOSTRATUS_BENCH_BRIDGED")
    assert "`pulumi-resource-civo`" in note and "its own sources" in note
    assert "pulumi_civo" in note and "no verdict" in note

    monkeypatch.setenv("ALTOSTRATUS_BENCH_BRIDGED", str(tmp_path))
    side, note = bridged_side()
    assert side is None and f"names {tmp_path}, which holds no executable" in note


START = bytes.fromhex("3077af0c9274080241e1c107e6d618e6")
END = bytes.fromhex("f932433186182072008242104116d8f2")


def test_the_bridged_side_is_named_by_its_binary_and_its_sdk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder holding the provider (here a script answering ``-version`` as it does, with Go's
    build information after its end) and its SDK: measured, every version named."""
    from benchmarks.engine_ops import bridged_side

    info = (
        "path\tgithub.com/pulumi/pulumi-civo/provider/v2/cmd/pulumi-resource-civo\n"
        "dep\tgithub.com/civo/civogo\tv0.3.89\th1:x=\n"
        "dep\tgithub.com/civo/terraform-provider-civo\tv1.1.4\n"
        "=>\t../../terraform-provider-civo\t(devel)\t\n"
    )
    binary = tmp_path / "pulumi-resource-civo"
    binary.write_bytes(b"#!/bin/sh\necho 2.4.8\nexit 0\n" + START + info.encode() + END)
    binary.chmod(0o755)
    monkeypatch.setenv("ALTOSTRATUS_BENCH_BRIDGED", str(tmp_path))
    side, note = bridged_side()
    assert side is None and "`pulumi_civo` cannot be imported by" in note

    (tmp_path / "pulumi_civo").mkdir()
    (tmp_path / "pulumi_civo" / "__init__.py").write_text("")
    (tmp_path / "pulumi_civo-2.4.8.dist-info").mkdir()
    (tmp_path / "pulumi_civo-2.4.8.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: pulumi_civo\nVersion: 2.4.8\n"
    )
    side, note = bridged_side()
    assert side is not None and not note
    assert side.folder == tmp_path and side.python_path.split(os.pathsep)[0] == str(tmp_path)
    assert side.versions == (
        "pulumi-resource-civo 2.4.8 (the Terraform provider civo/terraform-provider-civo v1.1.4 "
        "from a local copy linked in), pulumi_civo 2.4.8 for the program"
    )


def test_the_bridged_side_runs_only_the_stacks_whose_reserved_ips_it_can_find() -> None:
    """Its Go client finds a reserved IP in the first page of 20 alone: the 100-resource stack
    (30 of its own) is left out, and the report shows it unmeasured there, not as a verdict."""
    from benchmarks.engine_ops import STACKS, _tables, bridged_fits

    assert [name for name, groups in STACKS.items() if bridged_fits(groups)] == ["5", "20"]
    walls = {"ours": 0.8, "plugin": 1.0, "floor": 0.5, "sdk": 0.6, "raw": 0.01}
    stacks = {"5": _figures({**walls, "bridged": 0.9}), "100": _figures(walls)}
    tables, data = _tables(stacks, {**NAMED, "bridged": "bridged 2.4.8"})
    (table,) = (t for t in tables if "bridged" in t.headers)
    assert {row[0] for row in table.rows} == {"5 resources"}
    assert "bridged" in data["5"]["up"] and "bridged" not in data["100"]["up"]
    state = tables[-1]
    assert [row[-1] for row in state.rows] == ["1000 B", "—"]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_users_environment_holds_the_project_and_its_own_dependencies_only() -> None:
    """Section 17's programs run where a user's do: altostratus and its dependencies at this
    environment's versions, none of the development tools (httpx's command-line extras among
    them, which every provider process would import)."""
    from importlib import metadata

    from benchmarks.user_env import PINNED, UserEnvironment

    with UserEnvironment() as env:
        pairs = (line.split("==", 1) for line in env.packages())
        installed = {name.lower().replace("_", "-"): version for name, version in pairs}
        for name in PINNED:
            assert installed[name] == metadata.version(name)
        assert installed["altostratus"] == metadata.version("altostratus")
        assert not {"click", "rich", "pygments", "pytest", "moto"} & set(installed)
        imported = subprocess.run(
            [str(env.python), "-c", "import altostratus.plugin.server, sys; "
             "import altostratus.client._client; "
             "print(sorted({'httpx', 'rich', 'click', 'pygments'} & set(sys.modules)))"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert imported.stdout.strip() == "['httpx']"
        folder = env.prefix
    assert not folder.exists()
