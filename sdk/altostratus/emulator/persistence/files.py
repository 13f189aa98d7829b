"""Files that survive a crash: written whole or not at all, read back only if intact.

A write goes to a temporary file in the same folder, is flushed and fsynced, then renamed over
the old file (an atomic step), and the folder is fsynced so the rename itself is durable. A
crash at any moment leaves either the old file or the new one, never a mixture. Each state
document carries a SHA-256 of its body, so a file damaged later (a disk error, a hand edit) is
recognised and refused instead of half-read.

Each document carries the version of the format it was written in; a document of an earlier
version is read through one upgrade step per version since (``UPGRADES``), in memory (the
folder is rewritten in this version by the next whole save); a later version is refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

FORMAT = "altostratus-emulator-state"
VERSION = 3
#: The version of the state database (``persistence.VERSION``), the latest.
LATEST = 4


def _same(body: Any) -> Any:
    return body


#: Where version 2 put each record type (by module path): its name since version 3.
_EARLIER_RECORDS = {
    "altostratus.emulator.state.accounts:Account": "account",
    "altostratus.emulator.state.networks:Network": "network",
    "altostratus.emulator.state.firewalls:Firewall": "firewall",
    "altostratus.emulator.state.firewalls:Rule": "firewall_rule",
    "altostratus.emulator.state.credentials:Credential": "object_store_credential",
    "altostratus.emulator.state.object_stores:ObjectStore": "object_store",
    "altostratus.emulator.state.load_balancers:LoadBalancer": "load_balancer",
    "altostratus.emulator.state.reserved_ips:ReservedIp": "reserved_ip",
    "altostratus.emulator.state.webhooks:Webhook": "webhook",
    "altostratus.emulator.webhooks.dispatcher:_Attempt": "webhook_attempt",
}


def _records_by_name(body: Any) -> Any:
    """Version 2 to 3: a record is tagged by its kind's name, no longer by its class's module
    path (a path it does not list is left, and refused as a record type this version lacks)."""
    if isinstance(body, list):
        return [_records_by_name(item) for item in body]
    if not isinstance(body, dict):
        return body
    upgraded = {key: _records_by_name(value) for key, value in body.items()}
    tag = upgraded.get("@record")
    if isinstance(tag, str):
        upgraded["@record"] = _EARLIER_RECORDS.get(tag, tag)
    return upgraded


#: The step from each earlier version to the next: 1 had no journal (its body is 2's).
UPGRADES: dict[int, Callable[[Any], Any]] = {1: _same, 2: _records_by_name}


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
    version = document.get("version")
    if version != VERSION and version not in UPGRADES:
        raise DamagedStateFile(
            path,
            f"is in state format {version!r}, and this version of altostratus reads formats "
            f"{min(UPGRADES)} to {LATEST}",
        )
    if _raw_digest(data) != document.get("sha256"):  # another layout: the body's text again
        text = json.dumps(document.get("body"), sort_keys=True, separators=(",", ":"))
        if hashlib.sha256(text.encode()).hexdigest() != document.get("sha256"):
            raise DamagedStateFile(path, "is damaged (its checksum does not match)")
    body = document["body"]
    for step in range(version, VERSION):
        body = UPGRADES[step](body)
    return body


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
