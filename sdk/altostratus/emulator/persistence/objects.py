"""Object-store contents on disk: one file per object key, rewritten when the key changes.

Each file holds every stored version of one key (moto's records, which carry the bytes, the
metadata, the content type and the ETag) as a pickle behind a SHA-256 of it, so a damaged file
is refused rather than loaded. The files are the emulator's own, in the state folder the user
gave; they are read back only when that folder is used again. A bucket's versioning setting is
kept beside its keys. Object tags and ACLs, which moto keeps outside the key records, are not;
nor are unfinished multipart uploads.

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


def _signature(versions: list[Any]) -> tuple[Any, ...]:
    return tuple((id(v), v.etag, v.version_id, v.last_modified) for v in versions)


class ObjectFiles:
    """The keys of every bucket under ``folder/<bucket>/``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._written: dict[str, dict[str, tuple[Any, ...]]] = {}

    def _bucket_folder(self, bucket: str) -> Path:
        return self.folder / bucket

    def _key_file(self, bucket: str, key_name: str) -> Path:
        digest = hashlib.sha256(key_name.encode("utf-8", "surrogatepass")).hexdigest()
        return self._bucket_folder(bucket) / f"{digest}{_SUFFIX}"

    def save(self, touched: Touched) -> None:
        """Write what a write changed: its keys, or the whole bucket."""
        with self._lock:
            if touched.whole:
                self._sync(touched.bucket)
                return
            for key_name in touched.keys:
                versions = store.key_versions(touched.bucket, key_name)
                if versions is not None:
                    self._keep(touched.bucket, key_name, versions)

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
        if not self._bucket_folder(bucket).is_dir():
            self._settings(bucket, store.versioning(bucket))
        payload = pickle.dumps({"name": key_name, "versions": versions})
        digest = hashlib.sha256(payload).hexdigest().encode()
        write_atomic(self._key_file(bucket, key_name), digest + b"\n" + payload)
        written[key_name] = _signature(versions)

    def forget(self, bucket: str) -> None:
        """Remove every file of a deleted bucket."""
        with self._lock:
            self._written.pop(bucket, None)
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
        with self._lock:
            self._written[bucket] = {name: _signature(v) for name, v in keys.items()}

    def stray_buckets(self, known: set[str]) -> list[str]:
        """Folders of buckets the state does not hold (left by a crash before a delete)."""
        if not self.folder.is_dir():
            return []
        return sorted(p.name for p in self.folder.iterdir() if p.is_dir() and p.name not in known)


def _load_key(path: Path) -> tuple[str, list[Any]]:
    """A key file's name and versions; ``DamagedStateFile`` for anything else."""
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
    name = record.get("name") if isinstance(record, dict) else None
    versions = record.get("versions") if isinstance(record, dict) else None
    if (
        not isinstance(name, str)
        or not isinstance(versions, list)
        or not versions
        or not all(store.is_key_record(version) for version in versions)
    ):
        raise DamagedStateFile(path, "is not an object file of the emulator")
    return name, versions
