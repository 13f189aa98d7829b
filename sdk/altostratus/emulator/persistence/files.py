"""Files that survive a crash: written whole or not at all, read back only if intact.

A write goes to a temporary file in the same folder, is flushed and fsynced, then renamed over
the old file (an atomic step), and the folder is fsynced so the rename itself is durable. A
crash at any moment leaves either the old file or the new one, never a mixture. Each state
document carries a SHA-256 of its body, so a file damaged later (a disk error, a hand edit) is
recognised and refused instead of half-read.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

FORMAT = "altostratus-emulator-state"
VERSION = 2
#: The formats this version reads: 1 had no journal.
READABLE = (1, 2)


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


def dump_document(body: Any) -> bytes:
    """A state document: format, version, the body's checksum, and the body."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()
    head = json.dumps({"format": FORMAT, "version": VERSION, "sha256": digest})
    return f'{head[:-1]}, "body": {text}}}\n'.encode()


def load_document(path: Path) -> Any:
    """The body of the state document at ``path``; ``StateFileError`` when it is damaged or
    from an incompatible version."""
    try:
        data = path.read_bytes()
        document = json.loads(data)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise DamagedStateFile(path, f"cannot be read ({_short(error)})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DamagedStateFile(path, "is not an emulator state file")
    if document.get("version") not in READABLE:
        raise DamagedStateFile(
            path,
            f"is in state format {document.get('version')!r}, and this version of altostratus "
            f"reads format {VERSION}",
        )
    if _raw_digest(data) == document.get("sha256"):
        return document["body"]  # the body's text as written: no need to encode it again
    text = json.dumps(document.get("body"), sort_keys=True, separators=(",", ":"))
    if hashlib.sha256(text.encode()).hexdigest() != document.get("sha256"):
        raise DamagedStateFile(path, "is damaged (its checksum does not match)")
    return document["body"]


def _raw_digest(data: bytes) -> str | None:
    """The checksum of the body's text as ``dump_document`` lays it out, None for another
    layout."""
    start = data.find(_BODY)
    if start < 0 or not data.endswith(b"}\n"):
        return None
    return hashlib.sha256(data[start + len(_BODY) : -2]).hexdigest()


_BODY = b', "body": '


def _short(error: Exception) -> str:
    return str(error).splitlines()[0][:120] if str(error) else type(error).__name__
