"""Folders saved in formats 1 to 3 (``state.json``, ``journal/``, ``objects/``), converted once
into the state database of format 4: ``state.json`` read through one step per version
(``UPGRADES``), the journal's changes applied in order, none missing, and the object files' heads
and bytes moved over (format 2's object files, serialized Python objects, are refused, never
loaded). Anything damaged is refused before the new database takes its name.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from altostratus.emulator.persistence.codec import IncompatibleState, decode
from altostratus.emulator.persistence.files import DamagedStateFile, later, write_atomic
from altostratus.emulator.persistence.rows import BYTES, write_change, write_whole
from altostratus.emulator.s3 import store

#: Each file's format and last version (the database's is ``persistence.VERSION``).
FORMAT = "altostratus-emulator-state"
VERSION = 3
STATE_FILE = "state.json"
JOURNAL = "journal"
OBJECTS = "objects"
EARLIER = (STATE_FILE, JOURNAL, OBJECTS)
#: The first line of an object file of format 2: serialized Python objects behind their SHA-256.
_PICKLED = re.compile(rb"[0-9a-f]{64}\n")


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
UPGRADES: dict[int, Callable[[Any], Any]] = {1: lambda body: body, 2: _records_by_name}


def load_document(path: Path) -> Any:
    """The body of the state document (format, version, checksum of the body, body) at
    ``path``, in version 3; ``DamagedStateFile`` when it is damaged or of another version."""
    try:
        document = json.loads(path.read_bytes())
    except (OSError, UnicodeDecodeError, ValueError) as error:
        problem = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
        raise DamagedStateFile(path, f"cannot be read ({problem})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DamagedStateFile(path, "is not an emulator state file")
    version = document.get("version")
    if version != VERSION and version not in UPGRADES:
        raise DamagedStateFile(path, later(version))
    text = json.dumps(document.get("body"), sort_keys=True, separators=(",", ":"))
    if hashlib.sha256(text.encode()).hexdigest() != document.get("sha256"):
        raise DamagedStateFile(path, "is damaged (its checksum does not match)")
    body = document["body"]
    for step in range(version, VERSION):
        body = UPGRADES[step](body)
    return body


def remove_earlier(folder: Path) -> None:
    for path in (folder / name for name in EARLIER):
        shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)


def convert(folder: Path, db: sqlite3.Connection) -> None:
    """Fill the (new) database ``db`` with what the earlier files of ``folder`` hold."""

    state_file = folder / STATE_FILE
    if not state_file.exists():
        raise DamagedStateFile(folder / JOURNAL, f"has changes but {STATE_FILE} is gone")
    body = load_document(state_file)
    covered = body.get("journal_seq", 0) if isinstance(body, dict) else None
    if not isinstance(covered, int):
        raise DamagedStateFile(state_file, "is damaged (journal_seq)")
    try:
        write_whole(db, body)
        for change in _journal(folder / JOURNAL, covered):
            write_change(db, change)
        encoded = "SELECT body FROM singletons WHERE name IN ('accounts', 'deliveries')"
        for (text,) in db.execute(f"SELECT body FROM records UNION ALL {encoded}"):
            decode(json.loads(text))  # refused now, while the earlier files are there
    except IncompatibleState as error:
        problem = f"was written by an incompatible version ({error})"
        raise DamagedStateFile(state_file, problem) from None
    except Exception as error:  # any other shape than the emulator wrote
        problem = f"is damaged ({type(error).__name__}: {str(error)[:120]})"
        raise DamagedStateFile(state_file, problem) from None
    objects = folder / OBJECTS
    for bucket in sorted(objects.iterdir()) if objects.is_dir() else []:
        if not bucket.is_dir():
            raise DamagedStateFile(bucket, "is not a folder of object files")
        _convert_bucket(bucket, folder / BYTES, db)


def _journal(journal: Path, covered: int) -> list[Any]:
    """The changes after change ``covered`` (which ``state.json`` holds), in order; the hidden
    files are changes in flight at a crash."""
    numbered = []
    for path in journal.glob("[!.]*"):
        if not re.fullmatch(r"[0-9]{12}\.json", path.name):
            raise DamagedStateFile(path, "is not a change file of the emulator")
        if int(path.stem) > covered:
            numbered.append((int(path.stem), path))
    changes = []
    for expected, (seq, path) in enumerate(sorted(numbered), start=covered + 1):
        if seq != expected:
            problem = f"follows change {expected - 1}, and {expected} is missing"
            raise DamagedStateFile(path, problem)
        body = load_document(path)
        if not isinstance(body, dict) or body.get("seq") != seq or "change" not in body:
            raise DamagedStateFile(path, "is not the change its name says")
        changes.append(body["change"])
    return changes


def _convert_bucket(folder: Path, bytes_folder: Path, db: sqlite3.Connection) -> None:
    bucket = folder.name
    versioning = None
    if (folder / "bucket.json").exists():
        try:
            versioning = json.loads((folder / "bucket.json").read_bytes())["versioning"]
        except (OSError, ValueError, KeyError, TypeError):
            raise DamagedStateFile(folder / "bucket.json", "is damaged") from None
    db.execute("INSERT INTO buckets VALUES (?, ?)", (bucket, versioning))
    for path in sorted(folder.glob("*.key")):
        head = _document(path)
        name = head.get("name") if isinstance(head, dict) else None
        versions = head.get("versions") if isinstance(head, dict) else None
        if not isinstance(name, str) or not isinstance(versions, list) or not versions:
            raise DamagedStateFile(path, "is not an object file of the emulator")
        for position, entry in enumerate(versions):
            digest = _move_bytes(path, entry, bytes_folder)
            version_id = entry["head"].get("version_id")
            db.execute(
                "INSERT INTO objects VALUES (?, ?, ?, ?, ?, ?)",
                (bucket, name, position, version_id, json.dumps(entry["head"]), digest),
            )
    uploads = folder / "uploads"
    for upload in sorted(uploads.iterdir()) if uploads.is_dir() else []:
        if upload.name.startswith(".") or not (upload / "upload").exists():
            continue  # a start or removal a crash cut short, never answered
        head = _document(upload / "upload")
        upload_id = _made(upload / "upload", store.make_upload, head, {}).id
        db.execute("INSERT INTO uploads VALUES (?, ?, ?)", (bucket, upload_id, json.dumps(head)))
        for path in upload.glob("*.part"):
            number = path.name.removesuffix(".part")
            if not number.isdigit():
                raise DamagedStateFile(path, "is not a part file of the emulator")
            entry = _document(path)
            digest = _move_bytes(path, entry, bytes_folder)
            db.execute(
                "INSERT INTO parts VALUES (?, ?, ?, ?, ?)",
                (bucket, upload_id, int(number), json.dumps(entry["head"]), digest),
            )


def _move_bytes(path: Path, entry: Any, bytes_folder: Path) -> str:
    """Copy the bytes an entry of the head file ``path`` names to ``bytes/``; their SHA-256."""
    name = entry.get("bytes") if isinstance(entry, dict) else None
    if not isinstance(name, str) or "/" in name or not name.endswith(".bin") or "head" not in entry:
        raise DamagedStateFile(path, "is not an object file of the emulator")
    try:
        data = (path.parent / name).read_bytes()
    except OSError as error:
        missing = isinstance(error, FileNotFoundError)
        problem = f"is missing (named by {path.name})" if missing else "cannot be read"
        raise DamagedStateFile(path.parent / name, problem) from None
    digest = hashlib.sha256(data).hexdigest()
    if name.removesuffix(".bin").rpartition(".")[2] != digest:
        raise DamagedStateFile(path.parent / name, "is damaged (its checksum does not match)")
    _made(path, store.make_version, entry["head"], data)
    bytes_folder.mkdir(exist_ok=True)
    if not (bytes_folder / digest).exists():
        write_atomic(bytes_folder / digest, data)
    return digest


def _made(path: Path, make: Any, head: Any, data: Any) -> Any:
    try:
        return make(head, data)
    except store.NotAHead as error:
        problem = f"is not an object file of the emulator ({error})"
        raise DamagedStateFile(path, problem) from None


def _document(path: Path) -> Any:
    """The body of an object file; one of format 2 (serialized Python objects) is refused,
    never loaded: a folder is data, and its checksum proves nothing of who wrote it."""
    with path.open("rb") as file:
        if _PICKLED.fullmatch(file.read(65)):
            raise DamagedStateFile(
                path,
                "is an object file of an earlier format (Python objects), which this version "
                "does not load: export the state with that version (GET /_emulator/state) "
                "and load it here (PUT /_emulator/state)",
            )
    return load_document(path)
