"""Files that survive a crash: written whole or not at all (a temporary file in the same folder,
flushed and fsynced, renamed over the old one, the folder fsynced so the rename is durable);
the error a folder that cannot be used is refused with; and a saved value's JSON text."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

#: The version of the state folder's format this version writes (the database's).
VERSION = 4


class StateFileError(Exception):
    """A state folder or file that cannot be used; ``str()`` is one line saying why and what
    to do."""


class DamagedStateFile(StateFileError):
    """A state file that is damaged or from an incompatible version; never reset silently."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(
            f"{path} {problem}; the emulator does not start on it: move the state folder "
            "away (or restore a backup) to start empty"
        )


def later(version: Any) -> str:
    """What a file of another version than this one reads is refused with."""
    return f"is in state format {version!r}, and this version of altostratus reads 1 to {VERSION}"


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file whole."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    sync_folder(path.parent)


def remove(path: Path) -> None:
    """Remove ``path`` if it exists, durably."""
    try:
        path.unlink()
    except FileNotFoundError:
        return
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))
