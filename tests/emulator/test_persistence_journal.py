"""``--state-dir``'s journal: a change writes what it touched, replayed at start onto
``state.json``; a torn change dropped, damage refused, a crash while folding it in harmless."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from altostratus.emulator import Emulator, StateFileError, persistence
from altostratus.emulator.persistence import files, snapshot

from .test_persistence import _listed, _populate
from .test_server import call


def ok(emulator: Emulator, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    status, answer = call(emulator, method, path, body)
    assert status == 200, (method, path, answer)
    return answer


def _captured(emulator: Emulator) -> dict[str, Any]:
    """Everything the folder keeps, but the clock's reading (it moves on by itself)."""
    body = snapshot.capture(emulator.state, emulator.clock, emulator.dispatcher)
    body["clock"] = {k: v for k, v in body["clock"].items() if k == "time_scale"}
    return body


def _crash(emulator: Emulator) -> None:
    """Stop as a crash would: nothing written whole, the folder released."""
    emulator._save = None
    emulator.stop()


def _every_kind_of_change(emulator: Emulator) -> None:
    _populate(emulator)
    network = ok(emulator, "POST", "/v2/vpc/networks", {"label": "n", "cidr_v4": "10.7.0.0/24"})
    firewall = ok(emulator, "POST", "/v2/vpc/firewalls", {"name": "f", "network_id": network["id"]})
    rule_body = {"protocol": "tcp", "start_port": "80", "end_port": "81", "cidr": ["10.0.0.0/8"]}
    rules = f"/v2/vpc/firewalls/{firewall['id']}/rules"
    rule = ok(emulator, "POST", rules, rule_body)
    second = ok(emulator, "POST", rules, {**rule_body, "start_port": "443", "end_port": "443"})
    ok(emulator, "DELETE", f"{rules}/{second['id']}")
    ok(
        emulator,
        "PUT",
        f"{rules}/{rule['id']}",
        {**rule_body, "start_port": "8080", "end_port": ""},
    )
    backends = [{"ip": "10.7.0.9", "protocol": "TCP", "source_port": 80, "target_port": 80}]
    balancer = ok(
        emulator,
        "POST",
        "/v2/vpc/loadbalancers",
        {"name": "b", "network_id": network["id"], "backends": backends},
    )
    backends.append({"ip": "10.7.0.10", "protocol": "TCP", "source_port": 81, "target_port": 81})
    ok(emulator, "PUT", f"/v2/vpc/loadbalancers/{balancer['id']}", {"backends": backends})
    reserved = ok(emulator, "POST", "/v2/vpc/ips", {"name": "r"})
    ok(
        emulator,
        "POST",
        f"/v2/vpc/ips/{reserved['id']}/actions",
        {"action": "assign", "assign_to_id": balancer["id"]},
    )
    hook = _listed(emulator, "/v2/webhooks")[0]
    ok(emulator, "PUT", f"/v2/webhooks/{hook['id']}", {"url": "http://127.0.0.1:9/other"})
    credential = _listed(emulator, "/v2/objectstore/credentials")[0]
    ok(
        emulator,
        "PATCH",
        f"/v2/objectstore/credentials/{credential['id']}",
        {"secret_access_key_id": "R" * 40},
    )
    short = ok(
        emulator,
        "POST",
        "/v2/vpc/loadbalancers",
        {"name": "short", "network_id": network["id"], "backends": backends},
    )
    ok(emulator, "DELETE", f"/v2/vpc/loadbalancers/{short['id']}")  # frees its network host
    held = ok(emulator, "POST", "/v2/vpc/firewalls", {"name": "h", "network_id": network["id"]})
    accounts = ok(emulator, "GET", "/_emulator/accounts")
    ok(
        emulator,
        "PUT",
        f"/_emulator/accounts/{accounts[-1]['id']}/quota",
        {"security_group_limit": 3},
    )
    # Removals: one finished by the clock, one still under way.
    emulator.state.settings.delete_seconds = 60
    gone = ok(emulator, "POST", "/v2/vpc/ips", {"name": "gone"})
    ok(emulator, "DELETE", f"/v2/vpc/ips/{gone['id']}")
    ok(emulator, "POST", "/_emulator/clock", {"advance_seconds": 120})
    ok(emulator, "POST", "/v2/vpc/networks", {"label": "settles-the-ip"})
    ok(emulator, "DELETE", f"/v2/vpc/loadbalancers/{balancer['id']}")
    ok(emulator, "DELETE", f"/v2/vpc/firewalls/{held['id']}")


def test_a_restart_after_every_kind_of_change_reproduces_the_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(persistence, "JOURNAL_FLOOR", 1 << 40)  # every change journalled
    with Emulator(state_dir=tmp_path) as first:
        _every_kind_of_change(first)
        assert first.dispatcher.wait_idle(10)
        before = _captured(first)
        assert before["removals"], "removals under way are part of the test"
        journalled = sorted(int(p.stem) for p in (tmp_path / "journal").glob("*.json"))
        assert journalled == list(range(1, len(journalled) + 1)) and len(journalled) > 30
        _crash(first)
    with Emulator(state_dir=tmp_path) as second:
        assert _captured(second) == before


def test_a_torn_change_is_dropped_and_damage_elsewhere_refused(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path) as first:
        for number in range(3):
            ok(first, "POST", "/v2/vpc/networks", {"label": f"n{number}"})
        before = _captured(first)
        _crash(first)
    journal = tmp_path / "journal"
    changes = sorted(journal.glob("*.json"))
    assert len(changes) == 3
    torn = journal / f".{changes[-1].name}.a1b2c3"  # a change in flight at the crash
    torn.write_bytes(changes[-1].read_bytes()[:40])
    with Emulator(state_dir=tmp_path) as second:
        assert _captured(second) == before
        assert not torn.exists()
        for number in range(3):
            ok(second, "POST", "/v2/vpc/networks", {"label": f"n{number}"})
        _crash(second)
    changes = sorted(journal.glob("*.json"))
    # A start only loads: the journal the crash left is kept, and the new changes follow it.
    assert [int(path.stem) for path in changes] == [1, 2, 3, 4, 5, 6]
    text = changes[4].read_bytes()
    changes[4].write_bytes(text.replace(b'"n1"', b'"N1"'))
    with pytest.raises(StateFileError, match="checksum does not match"):
        Emulator(state_dir=tmp_path)
    changes[4].unlink()
    with pytest.raises(StateFileError, match="change 5 is missing"):
        Emulator(state_dir=tmp_path)


def test_a_crash_between_the_steps_of_folding_the_journal_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Emulator(state_dir=tmp_path) as first:
        for number in range(3):
            ok(first, "POST", "/v2/vpc/networks", {"label": f"n{number}"})
        before = _captured(first)
        real_replace = os.replace

        def fail_the_snapshot(source: str, target: str) -> None:
            if Path(target).name == "state.json":
                raise OSError(5, "Input/output error")
            real_replace(source, target)

        monkeypatch.setattr(os, "replace", fail_the_snapshot)
        with pytest.raises(OSError):
            first._save(compact=True)  # type: ignore[misc]
        monkeypatch.undo()
        _crash(first)
    with Emulator(state_dir=tmp_path) as second:  # the old snapshot and the whole journal
        assert _captured(second) == before
        ok(second, "POST", "/v2/vpc/networks", {"label": "later"})
        before = _captured(second)
        monkeypatch.setattr(Path, "unlink", lambda self, missing_ok=False: None)
        second._save(compact=True)  # type: ignore[misc]
        monkeypatch.undo()
        assert list((tmp_path / "journal").glob("*.json")), "files the snapshot holds are left"
        _crash(second)
    with Emulator(state_dir=tmp_path) as third:  # the new snapshot; the left files skipped
        assert _captured(third) == before
        assert not list((tmp_path / "journal").glob("*.json"))


def test_the_bytes_a_change_writes_do_not_grow_with_the_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = {"state.json": 0, "journal": 0}
    real_write = files.write_atomic

    def counting(path: Path, data: bytes) -> None:
        written["state.json" if path.name == "state.json" else "journal"] += len(data)
        real_write(path, data)

    for module in ("altostratus.emulator.persistence", "altostratus.emulator.persistence.journal"):
        monkeypatch.setattr(f"{module}.write_atomic", counting)

    def window(emulator: Emulator, changes: int, label: str) -> int:
        """The bytes of the changes' own files."""
        before = written["journal"]
        for _ in range(changes):
            ok(emulator, "POST", "/v2/vpc/networks", {"label": label})
        return written["journal"] - before

    with Emulator(state_dir=tmp_path) as emulator:
        account = emulator.state.accounts.by_id[emulator.state.default_account.id]
        account.limits["network_count"] = 10_000
        written["state.json"] = 0
        first = (tmp_path / "state.json").stat().st_size
        small = window(emulator, 100, "x")
        window(emulator, 1400, "y")
        large = window(emulator, 100, "x")
        folded = written["state.json"]
        journalled = written["journal"]
    grown = (tmp_path / "state.json").stat().st_size - first
    # Sixteen times the records, the same bytes a change: what it touched, not the whole state.
    assert 0 < large <= small * 1.05, (small, large)
    # And writing state.json whole now and then costs at most half as much again, amortized: a
    # fold writes the snapshot the journal outgrew twice over, with what the changes added to
    # it meanwhile (here each change adds a network), so the folds write at most half the
    # journal and, once more, the records the changes added.
    assert folded <= journalled / 2 + grown, (folded, journalled, grown)


def test_a_change_whose_write_failed_is_never_replayed_over_a_later_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Emulator(state_dir=tmp_path) as first:
        real_sync = files.sync_folder

        def fail_after_the_rename(folder: Path) -> None:
            if folder.name == "journal":
                raise OSError(5, "Input/output error")
            real_sync(folder)

        monkeypatch.setattr(files, "sync_folder", fail_after_the_rename)
        status, _ = call(first, "POST", "/v2/vpc/networks", {"label": "early"})
        assert status == 500  # its file is there all the same
        monkeypatch.undo()
        [network] = [n for n in _listed(first, "/v2/vpc/networks") if n["label"] == "early"]
        ok(first, "PUT", f"/v2/vpc/networks/{network['id']}", {"label": "later"})
        before = _captured(first)
        _crash(first)
    with Emulator(state_dir=tmp_path) as second:
        assert _captured(second) == before


def test_a_start_after_a_clean_stop_only_loads(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path) as first:
        ok(first, "POST", "/v2/vpc/networks", {"label": "kept"})
        before = _captured(first)
    state_file = tmp_path / "state.json"
    written = state_file.stat().st_ino, state_file.read_bytes()
    assert not list((tmp_path / "journal").glob("*.json"))  # the stop left it compact
    with Emulator(state_dir=tmp_path) as second:
        assert (state_file.stat().st_ino, state_file.read_bytes()) == written
        assert _captured(second) == before


def test_a_start_after_a_crash_writes_no_snapshot_and_loses_nothing(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path) as first:
        ok(first, "POST", "/v2/vpc/networks", {"label": "one"})
        before = _captured(first)
        _crash(first)
    state_file = tmp_path / "state.json"
    written = state_file.stat().st_ino
    with Emulator(state_dir=tmp_path) as second:
        assert state_file.stat().st_ino == written
        assert _captured(second) == before
        ok(second, "POST", "/v2/vpc/networks", {"label": "two"})
        after = _captured(second)
        _crash(second)
    with Emulator(state_dir=tmp_path) as third:
        assert _captured(third) == after


def test_a_fold_runs_in_the_background_and_a_crash_during_it_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(persistence, "JOURNAL_FLOOR", 0)
    monkeypatch.setattr(persistence, "JOURNAL_RATIO", 0)  # every change outgrows the snapshot
    held, release = threading.Event(), threading.Event()
    real_dump = persistence.dump_document

    def held_dump(body: Any) -> bytes:
        if threading.current_thread().name == "altostratus-fold":
            held.set()
            assert release.wait(60)
        return real_dump(body)

    monkeypatch.setattr(persistence, "dump_document", held_dump)
    live, killed = tmp_path / "live", tmp_path / "killed"
    with Emulator(state_dir=live) as first:
        ok(first, "POST", "/v2/vpc/networks", {"label": "one"})
        assert held.wait(60)  # a fold is under way, and held there
        for number in range(3):  # answered all the same: no change waits for the fold
            ok(first, "POST", "/v2/vpc/networks", {"label": f"during-{number}"})
        before = _captured(first)
        shutil.copytree(live, killed, ignore=shutil.ignore_patterns(".lock"))  # kill -9 now
        release.set()
        assert first.folder is not None
        first.folder.wait()
        after = _captured(first)
        _crash(first)
    monkeypatch.undo()
    with Emulator(state_dir=killed) as second:
        assert _captured(second) == before
    with Emulator(state_dir=live) as third:
        assert _captured(third) == after
