"""Keeping the emulator's state in a folder (``--state-dir``), across restarts and crashes.

The folder holds ``state.json`` (accounts, keys, every resource, webhook state, pending
deliveries and the clock, as of a moment), ``journal/`` (one file per change since that moment:
the records the change touched, with the small parts kept whole, written before the change is
answered) and ``objects/`` (object-store contents, one file per key, rewritten when the key
changes). So a change costs what it touched, not what the state holds. When the journal's files
add up to more than twice ``state.json`` (and 64 KiB), ``state.json`` is written whole again and
the journal emptied, which keeps the amortized cost of a change constant; so does every clean
stop, and a start only loads what is there (replaying the journal a crash left, which is folded
like any other once it outgrows the snapshot). Every file is replaced atomically (write, fsync,
rename, fsync the folder), so a crash, even ``kill -9``, loses at most the change in flight and
never leaves a file half written; a crash between writing ``state.json`` and emptying the
journal leaves files the snapshot already holds, which are skipped and removed. A file that is
damaged, or written by an incompatible version, and a journal with a change missing, are
refused when the emulator starts, with one line naming the
file: never silently reset. One emulator at a time may use a folder.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from altostratus.emulator.persistence.files import (
    DamagedStateFile,
    StateFileError,
    dump_document,
    load_document,
    write_atomic,
)
from altostratus.emulator.persistence.journal import Journal
from altostratus.emulator.persistence.objects import ObjectFiles

__all__ = ["StateFileError", "StateFolder"]

STATE_FILE = "state.json"
LOCK_FILE = ".lock"
JOURNAL = "journal"
#: The journal is folded into ``state.json`` once it outgrows this many times its size...
JOURNAL_RATIO = 2
#: ... and this many bytes.
JOURNAL_FLOOR = 64 * 1024


class StateFolder:
    """An emulator's state folder, locked for this process until ``close()``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser().resolve()
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._lock_file: IO[bytes] | None = open(self.path / LOCK_FILE, "ab")  # noqa: SIM115
        except OSError as error:
            raise StateFileError(f"cannot use {self.path}: {error.strerror}") from None
        if not _try_lock(self._lock_file):
            self._lock_file.close()
            self._lock_file = None
            raise StateFileError(f"{self.path} is in use by another emulator")
        self.state_file = self.path / STATE_FILE
        for name in ("objects", JOURNAL):
            if (self.path / name).exists() and not (self.path / name).is_dir():
                self.close()
                raise DamagedStateFile(self.path / name, "is not a folder")
        self.objects = ObjectFiles(self.path / "objects")
        self.journal = Journal(self.path / JOURNAL)
        self._write_lock = threading.Lock()
        self._snapshot_size = 0
        self._whole_needed = True

    def read(self) -> tuple[Any | None, list[Any]]:
        """The saved state's body (None for a new folder) and the journalled changes after
        it, in order."""
        if not self.state_file.exists():
            changes = self.journal.read(0)
            if changes:
                raise DamagedStateFile(self.journal.folder, f"has changes but {STATE_FILE} is gone")
            return None, []
        body = load_document(self.state_file)
        covered = body.get("journal_seq", 0) if isinstance(body, dict) else 0
        if not isinstance(covered, int):
            raise DamagedStateFile(self.state_file, "is damaged (journal_seq)")
        changes = self.journal.read(covered)
        # What is on disk is whole: the changes made from now on are journalled after it, and
        # no start pays for a compaction (a clean stop leaves none to do; after a crash the
        # journal is folded once it outgrows the snapshot, as while serving).
        self._snapshot_size = self.state_file.stat().st_size
        self._whole_needed = False
        return body, changes

    def save(
        self,
        change: Callable[[], dict[str, Any] | None],
        whole: Callable[[], dict[str, Any]],
        *,
        compact: bool = False,
    ) -> None:
        """Journal what ``change()`` returns (what changed since the last call); write
        ``whole()`` to ``state.json`` instead when ``compact`` is true, when ``change()`` returns
        None, when the journal has outgrown the snapshot, or after a write failed. Saves happen
        one at a time, in the order their changes were taken."""
        with self._write_lock:
            limit = JOURNAL_RATIO * self._snapshot_size + JOURNAL_FLOOR
            if not (compact or self._whole_needed or self.journal.size > limit):
                taken = change()
                if taken is not None:
                    try:
                        self.journal.append(taken)
                    except BaseException:
                        self._whole_needed = True  # the changes taken are not on disk
                        raise
                    return
            self._whole_needed = True
            body = whole()
            body["journal_seq"] = self.journal.seq
            data = dump_document(body)
            write_atomic(self.state_file, data)
            self._snapshot_size = len(data)
            self._whole_needed = False
            with contextlib.suppress(OSError):  # held by state.json: skipped at the next start
                self.journal.prune()

    def close(self) -> None:
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None


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
