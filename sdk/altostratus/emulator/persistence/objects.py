"""Object-store contents on disk: one file per object key, rewritten when the key changes.

Each file holds every stored version of one key (moto's records, which carry the bytes, the
metadata, the content type and the ETag) as a pickle behind a SHA-256 of it, so a damaged file
is refused rather than loaded. The files are the emulator's own, in the state folder the user
gave; they are read back only when that folder is used again. A bucket's versioning setting is
kept beside its keys. Object tags and ACLs, which moto keeps outside the key records, are not.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
from pathlib import Path
from typing import Any

from altostratus.emulator.persistence.files import DamagedStateFile, remove, write_atomic
from altostratus.emulator.s3 import store

_SUFFIX = ".key"
_BUCKET_FILE = "bucket.json"


def _signature(versions: list[Any]) -> tuple[Any, ...]:
    return tuple((id(v), v.etag, v.version_id, v.last_modified) for v in versions)


class ObjectFiles:
    """The keys of every bucket under ``folder/<bucket>/``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._written: dict[str, dict[str, tuple[Any, ...]]] = {}

    def _bucket_folder(self, bucket: str) -> Path:
        return self.folder / bucket

    def _key_file(self, bucket: str, key_name: str) -> Path:
        digest = hashlib.sha256(key_name.encode("utf-8", "surrogatepass")).hexdigest()
        return self._bucket_folder(bucket) / f"{digest}{_SUFFIX}"

    def sync(self, bucket: str) -> None:
        """Write the keys of ``bucket`` that changed since the last sync; remove the gone."""
        found = store.bucket_keys(bucket)
        if found is None:
            return
        keys, versioning = found
        folder = self._bucket_folder(bucket)
        folder.mkdir(parents=True, exist_ok=True)
        written = self._written.setdefault(bucket, {})
        settings = json.dumps({"versioning": versioning}).encode()
        settings_file = folder / _BUCKET_FILE
        if not settings_file.exists() or settings_file.read_bytes() != settings:
            write_atomic(settings_file, settings)
        for key_name, versions in keys.items():
            signature = _signature(versions)
            if written.get(key_name) == signature:
                continue
            payload = pickle.dumps({"name": key_name, "versions": versions})
            digest = hashlib.sha256(payload).hexdigest().encode()
            write_atomic(self._key_file(bucket, key_name), digest + b"\n" + payload)
            written[key_name] = signature
        for key_name in set(written) - set(keys):
            remove(self._key_file(bucket, key_name))
            del written[key_name]

    def forget(self, bucket: str) -> None:
        """Remove every file of a deleted bucket."""
        self._written.pop(bucket, None)
        shutil.rmtree(self._bucket_folder(bucket), ignore_errors=True)

    def restore(self, bucket: str) -> None:
        """Put the keys on disk back into the (just made, empty) bucket."""
        folder = self._bucket_folder(bucket)
        if not folder.is_dir():
            return
        keys: dict[str, list[Any]] = {}
        for path in sorted(folder.glob(f"*{_SUFFIX}")):
            record = _load_key(path)
            keys[record["name"]] = record["versions"]
        versioning = None
        settings_file = folder / _BUCKET_FILE
        if settings_file.exists():
            try:
                versioning = json.loads(settings_file.read_bytes())["versioning"]
            except (ValueError, KeyError, TypeError):
                raise DamagedStateFile(settings_file, "is damaged") from None
        store.restore_keys(bucket, keys, versioning)
        self._written[bucket] = {name: _signature(v) for name, v in keys.items()}

    def stray_buckets(self, known: set[str]) -> list[str]:
        """Folders of buckets the state does not hold (left by a crash before a delete)."""
        if not self.folder.is_dir():
            return []
        return sorted(p.name for p in self.folder.iterdir() if p.is_dir() and p.name not in known)


def _load_key(path: Path) -> dict[str, Any]:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DamagedStateFile(path, f"cannot be read ({error.strerror})") from None
    digest, _, payload = data.partition(b"\n")
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        raise DamagedStateFile(path, "is damaged (its checksum does not match)")
    try:
        record: dict[str, Any] = pickle.loads(payload)  # the emulator's own, checked file
    except Exception:
        raise DamagedStateFile(path, "was written by an incompatible version of moto") from None
    return record
