"""``--state-dir``'s database: each change one transaction of what it touched, committed before
it is answered, there after a crash (``kill -9`` leaves the database with its write-ahead log,
what a copy of the live folder holds); a change whose commit failed is kept by the next."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from altostratus.emulator import Emulator, persistence
from altostratus.emulator.persistence import snapshot

from ..serving.test_server import call
from .test_persistence import _listed, _populate


def ok(emulator: Emulator, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    status, answer = call(emulator, method, path, body)
    assert status == 200, (method, path, answer)
    return answer


def _captured(emulator: Emulator) -> dict[str, Any]:
    """Everything the folder keeps, but the clock's reading (it moves on by itself)."""
    body = snapshot.capture(emulator.state, emulator.clock, emulator.dispatcher)
    body["clock"] = {k: v for k, v in body["clock"].items() if k == "time_scale"}
    return body


def _crashed(emulator: Emulator, target: Path) -> Path:
    """What a ``kill -9`` now leaves of the emulator's folder: its files as they are, the
    database's write-ahead log not folded in."""
    assert emulator.folder is not None
    shutil.copytree(emulator.folder.path, target, ignore=shutil.ignore_patterns(".lock"))
    return target


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


def test_a_restart_after_every_kind_of_change_reproduces_the_state(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path / "live") as first:
        _every_kind_of_change(first)
        assert first.dispatcher.wait_idle(10)
        before = _captured(first)
        assert before["removals"], "removals under way are part of the test"
        crashed = _crashed(first, tmp_path / "crashed")
    assert (crashed / "state.db-wal").stat().st_size > 0, "the changes are in the log"
    for folder in (crashed, tmp_path / "live"):  # after kill -9, and after a graceful stop
        with Emulator(state_dir=folder) as second:
            assert _captured(second) == before


def test_a_change_whose_commit_failed_is_kept_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Emulator(state_dir=tmp_path / "live") as first:

        def full_disk(db: Any, change: Any) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(persistence, "write_change", full_disk)
        status, _ = call(first, "POST", "/v2/vpc/networks", {"label": "early"})
        assert status == 500  # not kept, not answered: the next change keeps it
        monkeypatch.undo()
        ok(first, "POST", "/v2/vpc/networks", {"label": "later"})
        before = _captured(first)
        assert {"early", "later"} <= {n["label"] for n in _listed(first, "/v2/vpc/networks")}
        crashed = _crashed(first, tmp_path / "crashed")
    with Emulator(state_dir=crashed) as second:
        assert _captured(second) == before


def test_a_change_writes_what_it_touched_whatever_the_state_holds(tmp_path: Path) -> None:
    """The rows a change writes do not grow with the records the state holds."""
    with Emulator(state_dir=tmp_path) as emulator:
        folder = emulator.folder
        assert folder is not None and folder._connection is not None
        connection = folder._connection

        def rows_written(label: str) -> int:
            before = connection.total_changes
            ok(emulator, "POST", "/v2/vpc/networks", {"label": label})
            return connection.total_changes - before

        small = rows_written("first")
        emulator.load_state(
            {"accounts": [{"name": "default", "quota": {"network_count": 500}, "networks": [
                {"label": f"n{n}"} for n in range(300)
            ]}]}
        )  # fmt: skip
        large = rows_written("last")
    assert large <= small <= 12, (small, large)


def test_a_start_after_a_clean_stop_only_loads(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path) as first:
        ok(first, "POST", "/v2/vpc/networks", {"label": "kept"})
        before = _captured(first)
    database = tmp_path / "state.db"
    written = database.read_bytes()
    assert not (tmp_path / "state.db-wal").exists()  # the stop folded the log in
    with Emulator(state_dir=tmp_path) as second:
        assert _captured(second) == before
        assert database.read_bytes() == written  # a start writes nothing
        wal = tmp_path / "state.db-wal"
        assert not wal.exists() or wal.stat().st_size == 0


def test_closing_the_folder_waits_for_a_save_in_progress_and_refuses_later_ones(
    tmp_path: Path,
) -> None:
    """A webhook delivery may end while the emulator stops: its save finishes before the
    database closes (a connection closed under a transaction crashes the process), and a save
    after the close is refused in words."""
    folder = persistence.StateFolder(tmp_path / "state")
    inside, release = threading.Event(), threading.Event()

    def save_slowly() -> None:
        with folder.transaction() as db:
            inside.set()
            release.wait(timeout=30)
            db.execute("SELECT 1").fetchall()

    saving = threading.Thread(target=save_slowly)
    saving.start()
    assert inside.wait(timeout=30)
    closing = threading.Thread(target=folder.close)
    closing.start()
    closing.join(timeout=0.2)
    assert closing.is_alive() and not folder.closed  # waits for the save in progress
    release.set()
    saving.join(timeout=30)
    closing.join(timeout=30)
    assert folder.closed
    with pytest.raises(persistence.FolderClosed, match="is closed"), folder.transaction():
        pass


def test_a_change_after_the_emulator_stopped_is_not_saved_and_does_not_fail(
    tmp_path: Path,
) -> None:
    emulator = Emulator(state_dir=tmp_path / "state").start()
    emulator.stop()
    assert emulator.dispatcher.on_change is not None
    emulator.dispatcher.on_change()  # a delivery ending after the stop
