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
journal leaves files the snapshot already holds, which are skipped and removed. Every file holds
plain values (records tagged by their kind's name, ``codec``; objects as heads and bytes,
``objects``) and the version of its format: an earlier one is read through an upgrade step per
version (``files.UPGRADES``). A file that is damaged, or written by a later version, and a
journal with a change missing, are refused when the emulator starts, with one line naming the
file: never silently reset. One emulator at a time may use a folder.
"""

from __future__ import annotations

import contextlib
import logging
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

logger = logging.getLogger("altostratus.emulator")

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
        self._folding: threading.Thread | None = None
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
        #: Held while ``state.json`` is written, by a save or by a fold in the background.
        self._file_lock = threading.Lock()
        self._written_seq = -1
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
        self._written_seq = covered
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
        None, or after a write failed. Saves happen one at a time, in the order their changes
        were taken. Once the journal outgrows the snapshot, it is folded in the background: the
        whole state is taken here (records keep their saved form, so that is cheap), and
        encoded, written and the journal pruned on another thread, so no change waits for it."""
        with self._write_lock:
            if not (compact or self._whole_needed):
                taken = change()
                if taken is not None:
                    try:
                        self.journal.append(taken)
                    except BaseException:
                        self._whole_needed = True  # the changes taken are not on disk
                        raise
                    if self.journal.size > JOURNAL_RATIO * self._snapshot_size + JOURNAL_FLOOR:
                        self._fold_later(whole)
                    return
            self._whole_needed = True
            body = whole()
            body["journal_seq"] = seq = self.journal.seq
            self._write(dump_document(body), seq)
            self._whole_needed = False

    def _write(self, data: bytes, seq: int) -> None:
        """Write ``state.json`` holding the changes up to ``seq``, unless a later one is
        there already (a fold finishing after a save), and prune the journal it holds."""
        with self._file_lock:
            if seq < self._written_seq:
                return
            write_atomic(self.state_file, data)
            self._written_seq = seq
            self._snapshot_size = len(data)
        with contextlib.suppress(OSError):  # held by state.json: skipped at the next start
            self.journal.prune(seq)

    def _fold_later(self, whole: Callable[[], dict[str, Any]]) -> None:
        if self._folding is not None and self._folding.is_alive():
            return
        body = whole()
        body["journal_seq"] = seq = self.journal.seq

        def fold() -> None:
            try:
                self._write(dump_document(body), seq)
            except Exception:  # the journal still holds every change: nothing is lost
                logger.exception("folding the journal into %s failed", self.state_file)

        self._folding = threading.Thread(target=fold, name="altostratus-fold", daemon=True)
        self._folding.start()

    def wait(self) -> None:
        """Wait for a fold in the background to finish."""
        folding = self._folding
        if folding is not None:
            folding.join()

    def close(self) -> None:
        self.wait()
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
