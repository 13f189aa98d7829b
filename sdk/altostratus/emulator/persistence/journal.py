"""The journal: one file per change made since ``state.json`` was last written whole.

Change ``n`` is the file ``journal/<n>.json`` (twelve digits), a state document (format,
version, checksum) whose body is ``{"seq": n, "change": ...}``, written atomically like every
state file, so a change's file is whole or absent: a crash while writing one leaves at most a
hidden temporary file, which is the change in flight and is dropped. ``state.json`` says which
changes it already holds (``journal_seq``); the files after it must follow on, one by one: a
missing, damaged or foreign file is refused, never skipped. Files the snapshot already holds
(left by a crash between writing it and removing them) are removed when the folder is used.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any

from altostratus.emulator.persistence.files import (
    DamagedStateFile,
    dump_document,
    load_document,
    sync_folder,
    write_atomic,
)

_DIGITS = 12


class Journal:
    """The change files of ``folder``, after the snapshot that holds changes up to ``seq``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.seq = 0
        self._sizes: dict[int, int] = {}
        self._size = 0
        #: ``append`` and ``prune`` may run on different threads (a fold runs in the background).
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        """Bytes of the change files no snapshot holds yet."""
        return self._size

    def _count(self, seq: int, size: int) -> None:
        with self._lock:
            self._sizes[seq] = size
            self._size += size

    def _file(self, seq: int) -> Path:
        return self.folder / f"{seq:0{_DIGITS}d}.json"

    def _numbered(self, *, starting: bool = False) -> list[tuple[int, Path]]:
        if not self.folder.is_dir():
            return []
        found = []
        for path in self.folder.iterdir():
            if path.name.startswith("."):
                if starting:
                    with contextlib.suppress(OSError):  # a change in flight at a crash
                        path.unlink()
                continue
            stem, dot, suffix = path.name.partition(".")
            if not (stem.isdigit() and len(stem) == _DIGITS and dot and suffix == "json"):
                raise DamagedStateFile(path, "is not a change file of the emulator")
            found.append((int(stem), path))
        return sorted(found)

    def read(self, covered: int) -> list[dict[str, Any]]:
        """The changes after change ``covered`` (which the snapshot holds), in order."""
        changes = []
        expected = covered + 1
        self._sizes, self._size = {}, 0
        for seq, path in self._numbered(starting=True):
            if seq <= covered:  # left by a crash after the snapshot was written
                with contextlib.suppress(OSError):
                    path.unlink()
                continue
            if seq != expected:
                raise DamagedStateFile(
                    path, f"follows change {expected - 1}, and change {expected} is missing"
                )
            body = load_document(path)
            if not isinstance(body, dict) or body.get("seq") != seq or "change" not in body:
                raise DamagedStateFile(path, "is not the change its name says")
            changes.append(body["change"])
            with contextlib.suppress(OSError):
                self._count(seq, path.stat().st_size)
            expected += 1
        self.seq = expected - 1
        return changes

    def append(self, change: dict[str, Any]) -> None:
        """Write the next change durably (its file whole, then the folder). Its number is
        used up even when writing fails (the file may be there): the snapshot written next
        holds it, so no later start replays a change older than the snapshot."""
        self.seq += 1
        self.folder.mkdir(exist_ok=True)
        data = dump_document({"seq": self.seq, "change": change})
        write_atomic(self._file(self.seq), data)
        self._count(self.seq, len(data))

    def prune(self, upto: int) -> None:
        """Remove the change files up to ``upto``, once a snapshot holds them (changes after it
        may be written meanwhile)."""
        with self._lock:
            for seq in [seq for seq in self._sizes if seq <= upto]:
                self._size -= self._sizes.pop(seq)
        removed = False
        for seq, path in self._numbered():
            if seq <= upto:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                removed = True
        if removed:
            sync_folder(self.folder)
