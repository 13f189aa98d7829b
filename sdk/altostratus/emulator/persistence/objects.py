"""Object-store contents in the state database, their bytes in files named by their SHA-256.

A key's stored versions are rows of ``objects`` (the head as plain values, ``s3.store``, and the
SHA-256 of the bytes), an unfinished upload a row of ``uploads`` and one of ``parts`` per part
sent, a bucket's versioning a row of ``buckets``; object tags and ACLs are not kept. The file
``bytes/<sha256>`` is written and fsynced before a row naming it is committed, and removed once
no committed row does. A write is kept before it is answered, while it still holds the keys it
touched (``s3.usage``), so the last rows committed for a key are its last acknowledged state; one
that may touch any key (DeleteObjects, a bucket setting) compares the whole bucket with what was
last written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from altostratus.emulator.persistence.files import DamagedStateFile, dump, remove, write_atomic
from altostratus.emulator.s3 import store
from altostratus.emulator.s3.operations import Touched

Transaction = Callable[[], AbstractContextManager[sqlite3.Connection]]


def _part_signature(part: Any) -> tuple[Any, ...]:
    return (id(part), part.etag)


def _signature(versions: list[Any]) -> tuple[Any, ...]:
    return tuple((id(v), getattr(v, "etag", None), v.version_id, v.last_modified) for v in versions)


class ObjectFiles:
    """Every bucket's keys and uploads, in the database ``transaction`` gives; bytes in
    ``folder``."""

    def __init__(self, folder: Path, transaction: Transaction) -> None:
        self.folder = folder
        self._transaction = transaction
        #: What was last written, to skip what did not change: per bucket, each key's
        #: signature and each upload's parts' signatures (dropped when a commit fails).
        self._written: dict[str, dict[str, tuple[Any, ...]]] = {}
        self._uploads: dict[str, dict[str, dict[int, tuple[Any, ...]]]] = {}
        #: The bytes the open transaction's rows no longer name: removed after its commit.
        self._unnamed: set[str] = set()

    def save(self, touched: Touched) -> None:
        """Write what a write changed: its keys and uploads, a new upload, or the whole
        bucket."""
        bucket = touched.bucket
        with self._transaction() as db:
            if touched.whole:
                self._sync(db, bucket)
                return
            for key_name in touched.keys:
                versions = store.key_versions(bucket, key_name)
                if versions is not None:
                    self._keep(db, bucket, key_name, versions)
            for upload_id in touched.uploads:
                self._keep_upload(db, bucket, upload_id, store.upload(bucket, upload_id))
            if touched.started:  # a start's id is only in moto's answer
                kept = self._uploads.get(bucket, {})
                for upload_id, record in (store.uploads(bucket) or {}).items():
                    if upload_id not in kept:
                        self._keep_upload(db, bucket, upload_id, record)

    def _sync(self, db: sqlite3.Connection, bucket: str) -> None:
        """Write the keys of ``bucket`` that changed since last written; remove the gone."""
        found = store.bucket_keys(bucket)
        if found is None:
            return
        keys, versioning = found
        db.execute("INSERT OR REPLACE INTO buckets VALUES (?, ?)", (bucket, versioning))
        written = self._written.setdefault(bucket, {})
        for key_name, versions in keys.items():
            if written.get(key_name) != _signature(versions):
                self._keep(db, bucket, key_name, versions)
        rows = db.execute("SELECT DISTINCT key FROM objects WHERE bucket = ?", (bucket,))
        for key_name in {key for (key,) in rows} - set(keys):
            self._keep(db, bucket, key_name, [])
        uploads = store.uploads(bucket) or {}
        rows = db.execute("SELECT upload_id FROM uploads WHERE bucket = ?", (bucket,))
        for upload_id in set(uploads) | {upload_id for (upload_id,) in rows}:
            self._keep_upload(db, bucket, upload_id, uploads.get(upload_id))

    def _bytes(self, version: Any) -> str:
        """Write a version's bytes to the file named by their SHA-256, unless there; the SHA."""
        data = store.version_bytes(version)
        digest = hashlib.sha256(data).hexdigest()
        if not (self.folder / digest).exists():
            self.folder.mkdir(exist_ok=True)
            write_atomic(self.folder / digest, data)
        return digest

    def _named(self, db: sqlite3.Connection, table: str, where: str, *values: Any) -> None:
        """Note the bytes the rows of ``table`` matching ``where`` name, about to be removed."""
        query = f"SELECT sha256 FROM {table} WHERE {where}"
        self._unnamed.update(digest for (digest,) in db.execute(query, values))

    def _keep(
        self, db: sqlite3.Connection, bucket: str, key_name: str, versions: list[Any]
    ) -> None:
        """Write one key's versions (none: remove its rows)."""
        written = self._written.setdefault(bucket, {})
        self._named(db, "objects", "bucket = ? AND key = ?", bucket, key_name)
        db.execute("DELETE FROM objects WHERE bucket = ? AND key = ?", (bucket, key_name))
        if not versions:
            written.pop(key_name, None)
            return
        rows = []
        for position, version in enumerate(versions):
            head = store.version_head(version)
            rows.append((bucket, key_name, position, head["version_id"], dump(head)))
        db.executemany(
            "INSERT INTO objects VALUES (?, ?, ?, ?, ?, ?)",
            [(*row, self._bytes(v)) for row, v in zip(rows, versions, strict=True)],
        )
        written[key_name] = _signature(versions)

    def _keep_upload(
        self, db: sqlite3.Connection, bucket: str, upload_id: str, record: Any | None
    ) -> None:
        """Write one upload's head and the parts that changed since last written (None: the
        upload is over, and its rows are removed)."""
        kept = self._uploads.setdefault(bucket, {})
        if record is None:
            kept.pop(upload_id, None)
            self._named(db, "parts", "bucket = ? AND upload_id = ?", bucket, upload_id)
            for table in ("uploads", "parts"):
                query = f"DELETE FROM {table} WHERE bucket = ? AND upload_id = ?"
                db.execute(query, (bucket, upload_id))
            return
        parts = kept.get(upload_id)
        if parts is None:
            head = dump(store.upload_head_values(record))
            db.execute("INSERT OR REPLACE INTO uploads VALUES (?, ?, ?)", (bucket, upload_id, head))
            parts = kept[upload_id] = {}
        for number, part in store.upload_parts(record).items():
            signature = _part_signature(part)
            if parts.get(number) != signature:
                where = "bucket = ? AND upload_id = ? AND number = ?"
                self._named(db, "parts", where, bucket, upload_id, number)
                db.execute(
                    "INSERT OR REPLACE INTO parts VALUES (?, ?, ?, ?, ?)",
                    (bucket, upload_id, number, dump(store.version_head(part)), self._bytes(part)),
                )
                parts[number] = signature

    def forget(self, bucket: str) -> None:
        """Remove every row of a deleted bucket (its bytes once no other row names them)."""
        with self._transaction() as db:
            self._written.pop(bucket, None)
            self._uploads.pop(bucket, None)
            for table in ("objects", "parts"):
                self._named(db, table, "bucket = ?", bucket)
            for table in ("buckets", "objects", "uploads", "parts"):
                db.execute(f"DELETE FROM {table} WHERE bucket = ?", (bucket,))

    def rolled_back(self) -> None:
        """A transaction failed: what was last written is no longer known."""
        self._written.clear()
        self._uploads.clear()
        self._unnamed.clear()

    def drop_unnamed(self, db: sqlite3.Connection) -> None:
        """After a commit: remove the bytes its rows stopped naming, unless others name them."""
        unnamed, self._unnamed = self._unnamed, set()
        for digest in sorted(unnamed):
            if not db.execute(
                "SELECT EXISTS (SELECT 1 FROM objects WHERE sha256 = ?) "
                "OR EXISTS (SELECT 1 FROM parts WHERE sha256 = ?)",
                (digest, digest),
            ).fetchone()[0]:
                with contextlib.suppress(OSError):  # unnamed: removed at the next start
                    remove(self.folder / digest)

    def restore(self, bucket: str) -> None:
        """Put the keys and uploads saved into the (just made, empty) bucket."""
        with self._transaction() as db:
            keys: dict[str, list[Any]] = {}
            rows = db.execute(
                "SELECT key, head, sha256 FROM objects WHERE bucket = ? ORDER BY key, position",
                (bucket,),
            )
            for key_name, head, digest in rows:
                keys.setdefault(key_name, []).append(self._version(head, digest, key_name))
            found = db.execute("SELECT versioning FROM buckets WHERE bucket = ?", (bucket,))
            versioning = (found.fetchone() or [None])[0]
            if versioning not in (None, "Enabled", "Suspended"):
                raise ValueError(f"bucket {bucket!r} has versioning {versioning!r}")
            store.restore_keys(bucket, keys, versioning)
            uploads: dict[str, dict[int, tuple[Any, ...]]] = {}
            rows = db.execute("SELECT upload_id, head FROM uploads WHERE bucket = ?", (bucket,))
            for upload_id, head in rows.fetchall():
                found = db.execute(
                    "SELECT number, head, sha256 FROM parts WHERE bucket = ? AND upload_id = ?",
                    (bucket, upload_id),
                )
                parts = {n: self._version(h, d, upload_id) for n, h, d in found}
                record = store.make_upload(json.loads(head), parts)
                store.restore_upload(bucket, record, parts)
                uploads[upload_id] = {n: _part_signature(part) for n, part in parts.items()}
            self._written[bucket] = {name: _signature(v) for name, v in keys.items()}
            self._uploads[bucket] = uploads

    def _version(self, head: str, digest: str, owner: str) -> Any:
        """A stored version (or part) from its row, with its bytes."""
        path = self.folder / digest
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise DamagedStateFile(path, f"is missing (the bytes of {owner!r})") from None
        except OSError as error:
            raise DamagedStateFile(path, f"cannot be read ({error.strerror})") from None
        if hashlib.sha256(data).hexdigest() != digest:
            raise DamagedStateFile(path, "is damaged (its checksum does not match)")
        return store.make_version(json.loads(head), data)

    def prune(self, known: set[str]) -> None:
        """Remove the rows of buckets the state does not hold (a crash before a delete's), then
        the bytes no row names (a write a crash cut short) and temporary files."""
        with self._transaction() as db:
            rows = db.execute(
                "SELECT bucket FROM buckets UNION SELECT bucket FROM objects "
                "UNION SELECT bucket FROM uploads"
            )
            for (bucket,) in rows.fetchall():
                if bucket not in known:
                    self.forget(bucket)
            rows = db.execute("SELECT sha256 FROM objects UNION SELECT sha256 FROM parts")
            named = {digest for (digest,) in rows}
        for path in self.folder.iterdir() if self.folder.is_dir() else []:
            if path.name not in named:
                remove(path)
