"""Object-store contents on disk: one head file per object key, rewritten when the key changes,
and the bytes of each version in a file of their own, named by their SHA-256.

A key's head (``<sha256 of the key>.key``) is a state document (format, version, checksum)
holding, as plain values, every stored version of the key: its version id, ETag, content type
and metadata, last modified, owner, and what else S3 keeps on it (``s3.store.version_head``),
each naming its bytes' file (``<sha256 of the key>.<sha256 of the bytes>.bin``), which is
written first and never changed: a crash leaves the old head or the new one, each with its bytes
there. Nothing in the folder is code: every file is data read as data (the earlier format's
serialized moto records are refused, never loaded), and bytes whose SHA-256 is not their name,
or a head naming bytes that are missing, are refused. A bucket's versioning setting is
kept beside its keys. Object tags and ACLs, which moto keeps outside the key records, are not.

An unfinished multipart upload is a folder under ``uploads/``: its head (what it was started
with: key, metadata, content type) written when it starts, and one head per part (with its
bytes' file) written when the part is sent, so a part costs its own bytes whatever the upload
holds. A completed or aborted upload's folder is removed, its head first: a folder without a
head is what a crash left of a start or a removal that was never answered, and is dropped at
the next start.

A write is kept before it is answered, while it still holds the keys it touched (see
``s3.usage``): its keys' files are rewritten from what moto holds then, under one lock for the
whole folder, so two writes never interleave their files and the last file written for a key is
its last acknowledged state. A request that may touch any key (DeleteObjects, a bucket setting)
compares the whole bucket with what was last written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
import threading
from pathlib import Path
from typing import Any

from altostratus.emulator.persistence.files import (
    DamagedStateFile,
    dump_document,
    load_document,
    remove,
    write_atomic,
)
from altostratus.emulator.s3 import store
from altostratus.emulator.s3.operations import Touched

_SUFFIX = ".key"
_BYTES = ".bin"
_BUCKET_FILE = "bucket.json"
_UPLOADS = "uploads"
_HEAD = "upload"
_PART_SUFFIX = ".part"
#: The first line of an object file of the earlier format: serialized Python objects behind
#: their SHA-256.
_EARLIER = re.compile(rb"[0-9a-f]{64}\n")


def _part_signature(part: Any) -> tuple[Any, ...]:
    return (id(part), part.etag)


def _signature(versions: list[Any]) -> tuple[Any, ...]:
    return tuple((id(v), getattr(v, "etag", None), v.version_id, v.last_modified) for v in versions)


class ObjectFiles:
    """The keys of every bucket under ``folder/<bucket>/``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._written: dict[str, dict[str, tuple[Any, ...]]] = {}
        #: Per bucket, each kept upload's parts as last written (part number: signature).
        self._uploads: dict[str, dict[str, dict[int, tuple[Any, ...]]]] = {}
        #: Per bucket, the bytes' files each key's head names.
        self._bytes: dict[str, dict[str, set[str]]] = {}

    def _bucket_folder(self, bucket: str) -> Path:
        return self.folder / bucket

    def _key_file(self, bucket: str, key_name: str) -> Path:
        digest = hashlib.sha256(key_name.encode("utf-8", "surrogatepass")).hexdigest()
        return self._bucket_folder(bucket) / f"{digest}{_SUFFIX}"

    def save(self, touched: Touched) -> None:
        """Write what a write changed: its keys and uploads, a new upload, or the whole
        bucket."""
        with self._lock:
            if touched.whole:
                self._sync(touched.bucket)
                return
            bucket = touched.bucket
            for key_name in touched.keys:
                versions = store.key_versions(bucket, key_name)
                if versions is not None:
                    self._keep(bucket, key_name, versions)
            for upload_id in touched.uploads:
                self._keep_upload(bucket, upload_id, store.upload(bucket, upload_id))
            if touched.started:
                self._keep_started(bucket)

    def sync(self, bucket: str) -> None:
        """Write the keys of ``bucket`` that changed since last written; remove the gone."""
        with self._lock:
            self._sync(bucket)

    def _sync(self, bucket: str) -> None:
        found = store.bucket_keys(bucket)
        if found is None:
            return
        keys, versioning = found
        self._settings(bucket, versioning)
        written = self._written.setdefault(bucket, {})
        for key_name, versions in keys.items():
            if written.get(key_name) != _signature(versions):
                self._keep(bucket, key_name, versions)
        for key_name in set(written) - set(keys):
            self._keep(bucket, key_name, [])
        uploads = store.uploads(bucket) or {}
        for upload_id in set(uploads) | set(self._uploads.get(bucket, {})):
            self._keep_upload(bucket, upload_id, uploads.get(upload_id))

    def _keep_started(self, bucket: str) -> None:
        """Write the heads of the bucket's uploads not kept yet (a start's id is only in moto's
        answer; an upload it no longer holds was finished, and its own write removed it)."""
        kept = self._uploads.get(bucket, {})
        for upload_id, record in (store.uploads(bucket) or {}).items():
            if upload_id not in kept:
                self._keep_upload(bucket, upload_id, record)

    def _upload_folder(self, bucket: str, upload_id: str) -> Path:
        digest = hashlib.sha256(upload_id.encode("utf-8", "surrogatepass")).hexdigest()
        return self._bucket_folder(bucket) / _UPLOADS / digest

    def _keep_upload(self, bucket: str, upload_id: str, record: Any | None) -> None:
        """Write one upload's head and the parts that changed since last written (None: the
        upload is over, and its folder is removed), with the lock held."""
        kept = self._uploads.setdefault(bucket, {})
        folder = self._upload_folder(bucket, upload_id)
        if record is None:
            if kept.pop(upload_id, None) is not None or folder.exists():
                remove(folder / _HEAD)  # first: a folder without a head is dropped at start
                shutil.rmtree(folder, ignore_errors=True)
            return
        parts = kept.get(upload_id)
        if parts is None:
            self._bucket_ready(bucket)
            folder.mkdir(parents=True, exist_ok=True)
            write_atomic(folder / _HEAD, dump_document(store.upload_head_values(record)))
            parts = kept[upload_id] = {}
        for number, part in store.upload_parts(record).items():
            signature = _part_signature(part)
            if parts.get(number) != signature:
                stem = str(number)
                entry = _write_version(folder, stem, part)
                write_atomic(folder / f"{stem}{_PART_SUFFIX}", dump_document(entry))
                for old in folder.glob(f"{stem}.*{_BYTES}"):
                    if old.name != entry["bytes"]:
                        remove(old)
                parts[number] = signature

    def _bucket_ready(self, bucket: str) -> None:
        """Make the bucket's folder, with its settings, before its first key or upload."""
        if not self._bucket_folder(bucket).is_dir():
            self._settings(bucket, store.versioning(bucket))

    def _settings(self, bucket: str, versioning: str | None) -> None:
        folder = self._bucket_folder(bucket)
        folder.mkdir(parents=True, exist_ok=True)
        settings = json.dumps({"versioning": versioning}).encode()
        settings_file = folder / _BUCKET_FILE
        if not settings_file.exists() or settings_file.read_bytes() != settings:
            write_atomic(settings_file, settings)

    def _keep(self, bucket: str, key_name: str, versions: list[Any]) -> None:
        """Write one key's versions (none: remove its file): the bytes' files first, then the
        head, then the bytes' files it no longer names; with the lock held."""
        written = self._written.setdefault(bucket, {})
        named = self._bytes.setdefault(bucket, {})
        head_file = self._key_file(bucket, key_name)
        if not versions:
            remove(head_file)
            written.pop(key_name, None)
            for name in named.pop(key_name, set()):
                remove(head_file.parent / name)
            return
        self._bucket_ready(bucket)
        stem = head_file.stem
        entries = [_write_version(head_file.parent, stem, version) for version in versions]
        write_atomic(head_file, dump_document({"name": key_name, "versions": entries}))
        written[key_name] = _signature(versions)
        now = _named(entries)
        for name in named.get(key_name, set()) - now:
            remove(head_file.parent / name)
        named[key_name] = now

    def forget(self, bucket: str) -> None:
        """Remove every file of a deleted bucket."""
        with self._lock:
            self._written.pop(bucket, None)
            self._uploads.pop(bucket, None)
            self._bytes.pop(bucket, None)
            shutil.rmtree(self._bucket_folder(bucket), ignore_errors=True)

    def restore(self, bucket: str) -> None:
        """Put the keys on disk back into the (just made, empty) bucket."""
        folder = self._bucket_folder(bucket)
        if folder.exists() and not folder.is_dir():
            raise DamagedStateFile(folder, "is not a folder of object files")
        if not folder.is_dir():
            return
        keys: dict[str, list[Any]] = {}
        named: dict[str, set[str]] = {}
        for path in sorted(folder.glob(f"*{_SUFFIX}")):
            name, entries = _load_key(path)
            keys[name] = [_read_version(path, entry) for entry in entries]
            named[name] = _named(entries)
        kept = set().union(*named.values())
        for path in folder.glob(f"*{_BYTES}"):
            if path.name not in kept:  # a write's bytes whose head a crash never wrote
                remove(path)
        versioning = None
        settings_file = folder / _BUCKET_FILE
        if settings_file.exists():
            try:
                versioning = json.loads(settings_file.read_bytes())["versioning"]
            except (OSError, ValueError, KeyError, TypeError):
                raise DamagedStateFile(settings_file, "is damaged") from None
            if versioning not in (None, "Enabled", "Suspended"):
                raise DamagedStateFile(settings_file, "is damaged (versioning)")
        store.restore_keys(bucket, keys, versioning)
        uploads = self._restore_uploads(bucket)
        with self._lock:
            self._written[bucket] = {name: _signature(v) for name, v in keys.items()}
            self._uploads[bucket] = uploads
            self._bytes[bucket] = named

    def _restore_uploads(self, bucket: str) -> dict[str, dict[int, tuple[Any, ...]]]:
        """Put the bucket's unfinished uploads back; drop the folders a crash left headless."""
        uploads_folder = self._bucket_folder(bucket) / _UPLOADS
        if uploads_folder.exists() and not uploads_folder.is_dir():
            raise DamagedStateFile(uploads_folder, "is not a folder of uploads")
        kept: dict[str, dict[int, tuple[Any, ...]]] = {}
        if not uploads_folder.is_dir():
            return kept
        for folder in sorted(uploads_folder.iterdir()):
            if not folder.is_dir():
                if not folder.name.startswith("."):  # a write's temporary file, left by a crash
                    raise DamagedStateFile(folder, "is not an upload's folder")
                continue
            if not (folder / _HEAD).exists():
                shutil.rmtree(folder, ignore_errors=True)  # a start or removal never answered
                continue
            head = _document(folder / _HEAD)
            parts: dict[int, Any] = {}
            for path in folder.glob(f"*{_PART_SUFFIX}"):
                number = path.name.removesuffix(_PART_SUFFIX)
                if not number.isdigit():
                    raise DamagedStateFile(path, "is not a part file of the emulator")
                parts[int(number)] = _read_version(path, _document(path))
            try:
                record = store.make_upload(head, parts)
            except store.NotAHead as error:
                raise DamagedStateFile(folder / _HEAD, f"is not an upload file ({error})") from None
            upload_id = record.id
            store.restore_upload(bucket, record, parts)
            kept[upload_id] = {n: _part_signature(part) for n, part in parts.items()}
        return kept

    def stray_buckets(self, known: set[str]) -> list[str]:
        """Folders of buckets the state does not hold (left by a crash before a delete)."""
        if not self.folder.is_dir():
            return []
        return sorted(p.name for p in self.folder.iterdir() if p.is_dir() and p.name not in known)


def _write_version(folder: Path, stem: str, version: Any) -> dict[str, Any]:
    """Write a stored version's bytes to a file named by their SHA-256, unless there already;
    the version's entry in its head file, naming it."""
    data = store.version_bytes(version)
    name = f"{stem}.{hashlib.sha256(data).hexdigest()}{_BYTES}"
    if not (folder / name).exists():
        write_atomic(folder / name, data)
    return {"head": store.version_head(version), "bytes": name}


def _named(entries: list[dict[str, Any]]) -> set[str]:
    """The bytes' files the entries of a head name."""
    return {entry["bytes"] for entry in entries}


def _read_version(path: Path, entry: Any) -> Any:
    """The stored version an entry of the head file ``path`` describes, with its bytes."""
    if not isinstance(entry, dict) or not isinstance(entry.get("bytes"), str):
        raise DamagedStateFile(path, "is not an object file of the emulator")
    name = entry["bytes"]
    data_file = path.parent / name
    if "/" in name or not name.endswith(_BYTES) or name.startswith("."):
        raise DamagedStateFile(path, "is not an object file of the emulator")
    try:
        data = data_file.read_bytes()
    except FileNotFoundError:
        raise DamagedStateFile(data_file, f"is missing (named by {path.name})") from None
    except OSError as error:
        raise DamagedStateFile(data_file, f"cannot be read ({error.strerror})") from None
    if name.removesuffix(_BYTES).rpartition(".")[2] != hashlib.sha256(data).hexdigest():
        raise DamagedStateFile(data_file, "is damaged (its checksum does not match)")
    try:
        return store.make_version(entry.get("head"), data)
    except store.NotAHead as error:
        raise DamagedStateFile(path, f"is not an object file of the emulator ({error})") from None


def _document(path: Path) -> Any:
    """The body of an object file; one of the earlier format (serialized Python objects) is
    refused, never loaded: a folder is data, and its checksum proves nothing of who wrote it."""
    with contextlib.suppress(OSError), path.open("rb") as file:
        if _EARLIER.fullmatch(file.read(65)):
            raise DamagedStateFile(
                path,
                "is an object file of an earlier format (Python objects), which this version "
                "does not load: export the state with that version (GET /_emulator/state) "
                "and load it here (PUT /_emulator/state)",
            )
    return load_document(path)


def _load_key(path: Path) -> tuple[str, list[Any]]:
    """A key file's name and version entries; ``DamagedStateFile`` for anything else."""
    record = _document(path)
    name = record.get("name") if isinstance(record, dict) else None
    versions = record.get("versions") if isinstance(record, dict) else None
    if not isinstance(name, str) or not isinstance(versions, list) or not versions:
        raise DamagedStateFile(path, "is not an object file of the emulator")
    return name, versions
