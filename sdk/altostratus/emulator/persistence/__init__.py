"""Keeping the emulator's state in a folder (``--state-dir``), across restarts and crashes.

The folder holds ``state.json`` (accounts, keys, every resource, webhook state, pending
deliveries and the clock, rewritten whole after every change, before the change is answered) and
``objects/`` (object-store contents, one file per key, rewritten when the key changes). Every
file is replaced atomically (write, fsync, rename, fsync the folder), so a crash, even
``kill -9``, loses at most the change in flight and never leaves a file half written. A file that
is damaged, or written by an incompatible version, is refused when the emulator starts, with one
line naming it: it is never silently reset. One emulator at a time may use a folder.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from altostratus.emulator.persistence.files import (
    StateFileError,
    dump_document,
    load_document,
    write_atomic,
)
from altostratus.emulator.persistence.objects import ObjectFiles

__all__ = ["StateFileError", "StateFolder"]

STATE_FILE = "state.json"
LOCK_FILE = ".lock"


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
        self.objects = ObjectFiles(self.path / "objects")
        self._write_lock = threading.Lock()

    def read(self) -> Any | None:
        """The saved state's body, or None for a new folder."""
        if not self.state_file.exists():
            return None
        return load_document(self.state_file)

    def save(self, capture: Callable[[], Any]) -> None:
        """Write what ``capture()`` returns; captures and writes happen one at a time, so the
        file always ends with the latest capture."""
        with self._write_lock:
            write_atomic(self.state_file, dump_document(capture()))

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
