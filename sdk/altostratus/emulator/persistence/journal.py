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
        #: Bytes of change files written since the last snapshot.
        self.size = 0

    def _file(self, seq: int) -> Path:
        return self.folder / f"{seq:0{_DIGITS}d}.json"

    def _numbered(self) -> list[tuple[int, Path]]:
        if not self.folder.is_dir():
            return []
        found = []
        for path in self.folder.iterdir():
            if path.name.startswith("."):
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
        self.size = 0
        for seq, path in self._numbered():
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
                self.size += path.stat().st_size
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
        self.size += len(data)

    def prune(self) -> None:
        """Remove the change files up to ``seq``, once a snapshot holds them."""
        removed = False
        for seq, path in self._numbered():
            if seq <= self.seq:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                removed = True
        if removed:
            sync_folder(self.folder)
        self.size = 0
