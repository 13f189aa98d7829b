"""Keeping the emulator's state in a folder (``--state-dir``), across restarts and crashes.

The folder holds ``state.db``, a SQLite database (``SCHEMA``: the records by kind name and id,
the public addresses in use, the accounts, the webhook attempts waiting and the clock as
``singletons``, and the object heads and uploads of ``objects``), and ``bytes/``, the objects'
bytes named by their SHA-256. Every value is plain (``codec``): nothing names a module.

Each change is one transaction (WAL, ``synchronous=FULL``) committed before it is answered, so a
crash, even ``kill -9``, loses at most the change in flight; a replacement of the whole state is
one transaction too. The database says its format (``APPLICATION_ID``) and version; a folder of
an earlier version is converted once (``upgrade``) into a database that replaces nothing until it
is whole. A file of another format or a later version, damaged or truncated, is refused when the
emulator starts in one line naming it, and nothing is written. One emulator at a time may use a
folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from altostratus.emulator.persistence.files import (
    VERSION,
    DamagedStateFile,
    StateFileError,
    later,
    sync_folder,
)
from altostratus.emulator.persistence.objects import ObjectFiles
from altostratus.emulator.persistence.rows import (
    BYTES,
    KIND_NAMES,
    SINGLETONS,
    write_change,
    write_whole,
)

__all__ = ["StateFileError", "StateFolder"]

DATABASE = "state.db"
LOCK_FILE = ".lock"
APPLICATION_ID = 0x416C7453  # "AltS": the database's format, in its header
SCHEMA = """
CREATE TABLE records (kind TEXT NOT NULL, id TEXT NOT NULL, removal REAL, body TEXT NOT NULL,
    UNIQUE (kind, id));
CREATE TABLE public_addresses (address TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE singletons (name TEXT PRIMARY KEY, body TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE buckets (bucket TEXT PRIMARY KEY, versioning TEXT) WITHOUT ROWID;
CREATE TABLE objects (bucket TEXT NOT NULL, key TEXT NOT NULL, position INTEGER NOT NULL,
    version_id TEXT, head TEXT NOT NULL, sha256 TEXT NOT NULL, PRIMARY KEY (bucket, key, position));
CREATE INDEX objects_by_bytes ON objects (sha256);
CREATE TABLE uploads (bucket TEXT NOT NULL, upload_id TEXT NOT NULL, head TEXT NOT NULL,
    PRIMARY KEY (bucket, upload_id));
CREATE TABLE parts (bucket TEXT NOT NULL, upload_id TEXT NOT NULL, number INTEGER NOT NULL,
    head TEXT NOT NULL, sha256 TEXT NOT NULL, PRIMARY KEY (bucket, upload_id, number));
"""
#: The kind each ``State`` store attribute holds.


class FolderClosed(RuntimeError):
    """A transaction asked of a state folder after ``close``."""


class StateFolder:
    """An emulator's state folder, locked for this process until ``close()``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser().resolve()
        self._connection: sqlite3.Connection | None = None
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._lock_file: IO[bytes] | None = open(self.path / LOCK_FILE, "ab")  # noqa: SIM115
        except OSError as error:
            raise StateFileError(f"cannot use {self.path}: {error.strerror}") from None
        if not _try_lock(self._lock_file):
            self._lock_file.close()
            self._lock_file = None
            raise StateFileError(f"{self.path} is in use by another emulator")
        self.database = self.path / DATABASE
        self._lock = threading.RLock()
        self._depth = 0
        self._whole_needed = True
        self.objects = ObjectFiles(self.path / BYTES, self.transaction)
        try:
            self._connection = self._open()
        except BaseException:
            self.close()
            raise

    def _open(self) -> sqlite3.Connection:
        from altostratus.emulator.persistence import upgrade

        for leftover in self.path.glob(f".{DATABASE}.*"):  # a database a crash left unfinished
            leftover.unlink()
        if (self.path / BYTES).exists() and not (self.path / BYTES).is_dir():
            raise DamagedStateFile(self.path / BYTES, "is not a folder")
        if not self.database.exists():
            earlier = any((self.path / name).exists() for name in upgrade.EARLIER)
            made = not (self.path / BYTES).exists()
            try:
                self._create(lambda db: upgrade.convert(self.path, db) if earlier else None)
            except BaseException:
                if made and not self.database.exists():  # the folder is left as it was
                    shutil.rmtree(self.path / BYTES, ignore_errors=True)
                raise
        connection = _connect(self.database)
        upgrade.remove_earlier(self.path)  # converted: what a crash left of the earlier files
        return connection

    def _create(self, fill: Callable[[sqlite3.Connection], None]) -> None:
        """Make the database under a temporary name, whole, and only then give it its name."""
        temporary = self.path / f".{DATABASE}.new"
        connection = sqlite3.connect(temporary, isolation_level=None)
        try:
            connection.executescript(f"BEGIN; {SCHEMA}")
            fill(connection)
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {VERSION}")
            connection.execute("COMMIT")
        except BaseException:
            connection.close()
            temporary.unlink()
            raise
        connection.close()
        with open(temporary, "rb+") as file:
            os.fsync(file.fileno())
        os.replace(temporary, self.database)
        sync_folder(self.path)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The database, in a transaction committed when the outermost of these ends (rolled
        back on an error); one at a time."""
        with self._lock:
            connection = self._connection
            if connection is None:
                raise FolderClosed(f"the state folder {self.path} is closed")
            outermost = self._depth == 0
            if outermost:
                connection.execute("BEGIN IMMEDIATE")
            self._depth += 1
            try:
                yield connection
                if outermost:
                    connection.execute("COMMIT")
            except BaseException:
                if outermost:
                    if connection.in_transaction:  # a failed commit may have ended it
                        connection.execute("ROLLBACK")
                    self._whole_needed = True  # the records taken are not on disk
                    self.objects.rolled_back()
                raise
            finally:
                self._depth -= 1
            if outermost:
                self.objects.drop_unnamed(connection)

    def read(self) -> dict[str, Any] | None:
        """The saved state's body, in ``snapshot.capture``'s shape (None for a new folder)."""
        with self.transaction() as db:
            singles = dict(db.execute("SELECT name, body FROM singletons").fetchall())
            if not singles:
                return None
            body: dict[str, Any] = {name: json.loads(singles[name]) for name in SINGLETONS}
            texts: dict[str, list[str]] = {name: [] for name in KIND_NAMES.values()}
            removals: dict[str, dict[str, float]] = {name: {} for name in texts}
            # One scan, in the order the records were made (their rowid): the stores' order.
            rows = db.execute("SELECT kind, id, removal, body FROM records ORDER BY rowid")
            for kind, record_id, removal, text in rows:
                if kind not in texts:
                    raise ValueError(f"this version has no record kind {kind!r}")
                texts[kind].append(text)
                if removal is not None:
                    removals[kind][record_id] = removal
            kinds = KIND_NAMES.items()
            body["stores"] = {a: json.loads(f"[{','.join(texts[n])}]") for a, n in kinds}
            body["removals"] = {a: removals[n] for a, n in kinds}
            addresses = db.execute("SELECT address FROM public_addresses ORDER BY address")
            body["public_addresses"] = [address for (address,) in addresses]
        self._whole_needed = False
        return body

    def save(
        self,
        change: Callable[[], dict[str, Any] | None],
        whole: Callable[[], dict[str, Any]],
        *,
        compact: bool = False,
    ) -> None:
        """Commit what ``change()`` returns (what changed since the last call); write
        ``whole()`` instead when ``compact`` is true, when ``change()`` returns None, or after
        a commit failed."""
        with self.transaction() as db:
            taken = None if compact or self._whole_needed else change()
            if taken is None:
                write_whole(db, whole())
            else:
                write_change(db, taken)
        self._whole_needed = False

    @property
    def closed(self) -> bool:
        return self._connection is None

    def close(self) -> None:
        """Close the database once no transaction is in progress (a thread still saving, such
        as a webhook delivery ending, finishes first: a connection closed under it would crash
        the process); a later transaction raises ``FolderClosed``."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None


def _connect(path: Path) -> sqlite3.Connection:
    """The database at ``path``, checked before anything is written to it."""
    try:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as error:
        raise DamagedStateFile(path, f"cannot be opened ({error})") from None
    try:
        (application,) = connection.execute("PRAGMA application_id").fetchone()
        if application != APPLICATION_ID:
            raise DamagedStateFile(path, "is not an emulator state database")
        (version,) = connection.execute("PRAGMA user_version").fetchone()
        if version != VERSION:
            raise DamagedStateFile(path, later(version))
        problems = [line for (line,) in connection.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise DamagedStateFile(path, f"is damaged ({problems[0][:120]})")
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = FULL")
    except BaseException as error:
        connection.close()
        if isinstance(error, sqlite3.DatabaseError):
            raise DamagedStateFile(path, f"is damaged ({error})") from None
        raise
    return connection


def _try_lock(file: IO[bytes]) -> bool:
    try:
        import fcntl
    except ImportError:  # not POSIX: no advisory locks
        return True
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True
