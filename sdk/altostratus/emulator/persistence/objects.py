"""Object-store contents on disk: one file per object key, rewritten when the key changes.

Each file holds every stored version of one key (moto's records, which carry the bytes, the
metadata, the content type and the ETag) as a pickle behind a SHA-256 of it, so a damaged file
is refused rather than loaded. The files are the emulator's own, in the state folder the user
gave; they are read back only when that folder is used again. A bucket's versioning setting is
kept beside its keys. Object tags and ACLs, which moto keeps outside the key records, are not.

An unfinished multipart upload is a folder under ``uploads/``: its head (what it was started
with: key, metadata, content type) written when it starts, and one file per part written when
the part is sent, so a part costs its own bytes whatever the upload holds. A completed or
aborted upload's folder is removed, its head first: a folder without a head is what a crash
left of a start or a removal that was never answered, and is dropped at the next start.

A write is kept before it is answered, while it still holds the keys it touched (see
``s3.usage``): its keys' files are rewritten from what moto holds then, under one lock for the
whole folder, so two writes never interleave their files and the last file written for a key is
its last acknowledged state. A request that may touch any key (DeleteObjects, a bucket setting)
compares the whole bucket with what was last written.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
import threading
from pathlib import Path
from typing import Any

from altostratus.emulator.persistence.files import DamagedStateFile, remove, write_atomic
from altostratus.emulator.s3 import store
from altostratus.emulator.s3.operations import Touched

_SUFFIX = ".key"
_BUCKET_FILE = "bucket.json"
_UPLOADS = "uploads"
_HEAD = "upload"
_PART_SUFFIX = ".part"


def _part_signature(part: Any) -> tuple[Any, ...]:
    return (id(part), part.etag)


def _signature(versions: list[Any]) -> tuple[Any, ...]:
    return tuple((id(v), v.etag, v.version_id, v.last_modified) for v in versions)


class ObjectFiles:
    """The keys of every bucket under ``folder/<bucket>/``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._written: dict[str, dict[str, tuple[Any, ...]]] = {}
        #: Per bucket, each kept upload's parts as last written (part number: signature).
        self._uploads: dict[str, dict[str, dict[int, tuple[Any, ...]]]] = {}

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
            _write_checked(folder / _HEAD, {"id": upload_id, "upload": store.upload_head(record)})
            parts = kept[upload_id] = {}
        for number, part in store.upload_parts(record).items():
            signature = _part_signature(part)
            if parts.get(number) != signature:
                _write_checked(folder / f"{number}{_PART_SUFFIX}", {"part": part})
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
        """Write one key's versions (none: remove its file), with its lock held."""
        written = self._written.setdefault(bucket, {})
        if not versions:
            remove(self._key_file(bucket, key_name))
            written.pop(key_name, None)
            return
        self._bucket_ready(bucket)
        _write_checked(self._key_file(bucket, key_name), {"name": key_name, "versions": versions})
        written[key_name] = _signature(versions)

    def forget(self, bucket: str) -> None:
        """Remove every file of a deleted bucket."""
        with self._lock:
            self._written.pop(bucket, None)
            self._uploads.pop(bucket, None)
            shutil.rmtree(self._bucket_folder(bucket), ignore_errors=True)

    def restore(self, bucket: str) -> None:
        """Put the keys on disk back into the (just made, empty) bucket."""
        folder = self._bucket_folder(bucket)
        if folder.exists() and not folder.is_dir():
            raise DamagedStateFile(folder, "is not a folder of object files")
        if not folder.is_dir():
            return
        keys: dict[str, list[Any]] = {}
        for path in sorted(folder.glob(f"*{_SUFFIX}")):
            name, versions = _load_key(path)
            keys[name] = versions
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
            upload_id, head = _load_head(folder / _HEAD)
            parts: dict[int, Any] = {}
            for path in folder.glob(f"*{_PART_SUFFIX}"):
                number = path.name.removesuffix(_PART_SUFFIX)
                if not number.isdigit():
                    raise DamagedStateFile(path, "is not a part file of the emulator")
                parts[int(number)] = _load_part(path)
            store.restore_upload(bucket, head, parts)
            kept[upload_id] = {n: _part_signature(part) for n, part in parts.items()}
        return kept

    def stray_buckets(self, known: set[str]) -> list[str]:
        """Folders of buckets the state does not hold (left by a crash before a delete)."""
        if not self.folder.is_dir():
            return []
        return sorted(p.name for p in self.folder.iterdir() if p.is_dir() and p.name not in known)


def _write_checked(path: Path, record: dict[str, Any]) -> None:
    """Write ``record`` as a pickle behind its SHA-256, atomically."""
    payload = pickle.dumps(record)
    write_atomic(path, hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)


def _read_checked(path: Path) -> dict[str, Any]:
    """A record of ``_write_checked``; ``DamagedStateFile`` for a file that is not one."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DamagedStateFile(path, f"cannot be read ({error.strerror})") from None
    digest, _, payload = data.partition(b"\n")
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        raise DamagedStateFile(path, "is damaged (its checksum does not match)")
    try:
        record = pickle.loads(payload)  # the emulator's own, checked file
    except Exception:
        raise DamagedStateFile(path, "was written by an incompatible version of moto") from None
    return record if isinstance(record, dict) else {}


def _load_head(path: Path) -> tuple[str, Any]:
    """An upload's id and head; ``DamagedStateFile`` for anything else."""
    record = _read_checked(path)
    upload_id, head = record.get("id"), record.get("upload")
    if (
        not isinstance(upload_id, str)
        or not store.is_upload_record(head)
        or getattr(head, "id", None) != upload_id
    ):
        raise DamagedStateFile(path, "is not an upload file of the emulator")
    return upload_id, head


def _load_part(path: Path) -> Any:
    """One part of an upload; ``DamagedStateFile`` for anything else."""
    part = _read_checked(path).get("part")
    if not store.is_key_record(part):
        raise DamagedStateFile(path, "is not a part file of the emulator")
    return part


def _load_key(path: Path) -> tuple[str, list[Any]]:
    """A key file's name and versions; ``DamagedStateFile`` for anything else."""
    record = _read_checked(path)
    name = record.get("name")
    versions = record.get("versions")
    if (
        not isinstance(name, str)
        or not isinstance(versions, list)
        or not versions
        or not all(store.is_key_record(version) for version in versions)
    ):
        raise DamagedStateFile(path, "is not an object file of the emulator")
    return name, versions
