"""A state database damaged in any shape, SQLite's own checks passing, is refused at start
with one line naming what is wrong: never a traceback, never a start that fails on every
request later."""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from altostratus.emulator import Emulator, StateFileError

from .test_persistence import _populate, _refused


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("saved")
    with Emulator(state_dir=folder) as emulator:
        _populate(emulator)
    return folder


@pytest.fixture
def folder(saved: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "state"
    shutil.copytree(saved, copy)
    (copy / ".lock").unlink()
    return copy


def _rows(folder: Path, query: str, change: Callable[[Any], Any]) -> None:
    """Rewrite each (JSON) value ``query`` selects (after its key) with what ``change`` makes
    of it."""
    table = query.split(" FROM ", 1)[1].split()[0]
    key, column = query.split()[1].rstrip(","), query.split()[2]
    with contextlib.closing(sqlite3.connect(folder / "state.db")) as db, db:
        for rowid, text in db.execute(query).fetchall():
            value = json.loads(text)
            changed = change(value)
            db.execute(
                f"UPDATE {table} SET {column} = ? WHERE {key} = ?",
                (json.dumps(value if changed is None else changed), rowid),
            )


def _record(kind: str, change: Callable[[dict[str, Any]], Any]) -> Callable[[Path], None]:
    query = f"SELECT rowid, body FROM records WHERE kind = '{kind}' ORDER BY rowid LIMIT 1"
    return lambda f: _rows(f, query, change)


def _single(name: str, change: Callable[[Any], Any]) -> Callable[[Path], None]:
    return lambda f: _rows(f, f"SELECT name, body FROM singletons WHERE name = '{name}'", change)


def _head(table: str, change: Callable[[Any], Any]) -> Callable[[Path], None]:
    return lambda f: _rows(f, f"SELECT rowid, head FROM {table} LIMIT 1", change)


def _sql(statement: str) -> Callable[[Path], None]:
    def run(folder: Path) -> None:
        with contextlib.closing(sqlite3.connect(folder / "state.db")) as db, db:
            db.execute(statement)

    return run


def _network(folder: Path) -> dict[str, Any]:
    with contextlib.closing(sqlite3.connect(folder / "state.db")) as db:
        (text,) = db.execute("SELECT body FROM records WHERE kind = 'network' LIMIT 1").fetchone()
    found: dict[str, Any] = json.loads(text)
    return found


def _replace(path: Path, *, with_file: bool) -> None:
    shutil.rmtree(path) if path.is_dir() else path.unlink()
    if with_file:
        path.write_text("not a folder")
    else:
        path.mkdir()


DAMAGES: dict[str, Callable[[Path], Any]] = {
    "record-a-list": _record("network", lambda r: [r]),
    "record-not-json": _sql("UPDATE records SET body = '{' WHERE kind = 'network'"),
    "cidr-a-number": _record("network", lambda r: r["fields"].update(cidr=10)),
    "label-a-list": _record("network", lambda r: r["fields"].update(label=["x"])),
    "rules-of-strings": _record("firewall", lambda r: r["fields"].update(rules=["r"])),
    "fields-a-list": _record("network", lambda r: r.update(fields=[])),
    "record-of-another-module": _record("network", lambda r: r.update({"@record": "os:system"})),
    "kind-of-another-module": _sql("UPDATE records SET kind = 'os:system' WHERE rowid = 1"),
    "an-account-that-is-a-network": lambda f: _single("accounts", lambda a: a.append(_network(f)))(
        f
    ),
    "default-account-unknown": _single("default_account", lambda a: "nobody"),
    "clock-a-string": _single("clock", lambda c: "noon"),
    "deliveries-a-number": _single("deliveries", lambda d: 7),
    "two-tags": _single("deliveries", lambda d: {"@dict": [], "@set": []}),
    "removal-a-text": _sql("UPDATE records SET removal = 'soon' WHERE rowid = 1"),
    "accounts-gone": _sql("DELETE FROM singletons WHERE name = 'accounts'"),
    "state-db-a-folder": lambda f: _replace(f / "state.db", with_file=False),
    "bytes-a-file": lambda f: _replace(f / "bytes", with_file=True),
    "object-head-a-list": _head("objects", lambda h: [h]),
    "object-head-without-fields": _head("objects", lambda h: {"name": "k"}),
    "object-etag-a-number": _head("objects", lambda h: h.update(etag=7)),
    "versioning-a-number": _sql(
        "INSERT OR REPLACE INTO buckets SELECT DISTINCT bucket, 42 FROM objects"
    ),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_folder_is_refused_in_one_line(folder: Path, damage: str) -> None:
    DAMAGES[damage](folder)
    with pytest.raises(StateFileError) as refused:
        Emulator(state_dir=folder)
    message = str(refused.value)
    assert len(message.splitlines()) == 1, message
    assert str(folder) in message and "move the state folder away" in message


@pytest.mark.parametrize("damage", ["cidr-a-number", "object-head-without-fields"])
def test_the_command_says_it_in_one_line(folder: Path, damage: str) -> None:
    DAMAGES[damage](folder)
    assert "does not start on it" in _refused(folder)


def test_the_undamaged_copy_starts(folder: Path) -> None:
    with Emulator(state_dir=folder) as emulator:
        labels = {network.label for network in emulator.state.networks.records.values()}
        assert "kept" in labels
