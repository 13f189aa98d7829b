"""The emulator's buckets inside moto's S3 backend.

moto keeps its backends in module-level registries and replaces the backend object when it is
reset, so every call here looks the backend up again instead of keeping a reference. Sizes are
read from moto's records: every stored version of every key, plus the parts of unfinished
multipart uploads. ``used_bytes`` counts a whole bucket; the front counts it once and keeps the
count by measuring only what each write touches (``key_bytes``, ``upload_bytes``).
"""

from __future__ import annotations

import copy
import os
from datetime import datetime
from typing import Any

PARTITION = "aws"


# moto is imported on first use, not with the emulator: a program that makes no object store
# never pays for its S3 stack.


def moto_account_id() -> str:
    """The account moto files requests under (its ``MOTO_ACCOUNT_ID`` override, else default)."""
    from moto.core.models import DEFAULT_ACCOUNT_ID

    return os.environ.get("MOTO_ACCOUNT_ID", DEFAULT_ACCOUNT_ID)


def _backend() -> Any:
    from moto.s3.models import s3_backends

    return s3_backends[moto_account_id()][PARTITION]


def _kinds() -> tuple[Any, Any]:
    """moto's stored object version and delete marker."""
    from moto.s3.models import FakeDeleteMarker, FakeKey

    return FakeKey, FakeDeleteMarker


def _bucket(name: str) -> Any | None:
    return _backend().buckets.get(name)


def create(name: str, region_name: str) -> None:
    if _bucket(name) is None:
        _backend().create_bucket(name, region_name)


def delete(name: str) -> None:
    """Remove the bucket with every version of every key and every unfinished upload."""
    bucket = _bucket(name)
    if bucket is None:
        return
    for key_name in list(dict.keys(bucket.keys)):
        for version in dict.pop(bucket.keys, key_name, []):
            dispose = getattr(version, "dispose", None)  # delete markers hold no bytes
            if dispose is not None:
                dispose()
    for upload_id in list(bucket.multiparts):
        bucket.multiparts.pop(upload_id).dispose()
    _backend().delete_bucket(name)


def creation_date(name: str) -> datetime | None:
    bucket = _bucket(name)
    return None if bucket is None else bucket.creation_date


def _size(record: Any) -> int:
    size = getattr(record, "size", 0)
    return size if isinstance(size, int) else 0


def used_bytes(name: str) -> int:
    bucket = _bucket(name)
    if bucket is None:
        return 0
    total = 0
    for versions in list(dict.values(bucket.keys)):
        total += sum(_size(version) for version in list(versions))
    for upload in list(bucket.multiparts.values()):
        total += sum(_size(part) for part in list(upload.parts.values()))
    return total


def object_count(name: str) -> int:
    """The keys whose latest version is an object (not a delete marker)."""
    bucket = _bucket(name)
    if bucket is None:
        return 0
    latest = (versions[-1] for versions in list(dict.values(bucket.keys)) if versions)
    return sum(1 for version in latest if isinstance(version, _kinds()[0]))


def key_bytes(name: str, key_name: str) -> int:
    """Bytes of every stored version of one key."""
    bucket = _bucket(name)
    if bucket is None:
        return 0
    return sum(_size(version) for version in list(bucket.keys.getlist(key_name, [])))


def upload_bytes(name: str, upload_id: str) -> int:
    """Bytes of the parts of one unfinished upload."""
    bucket = _bucket(name)
    upload = None if bucket is None else bucket.multiparts.get(upload_id)
    return 0 if upload is None else sum(_size(part) for part in list(upload.parts.values()))


def replaced_bytes(name: str, key_name: str) -> int:
    """Bytes an unversioned write to ``key_name`` frees by replacing what is there."""
    bucket = _bucket(name)
    if bucket is None or bucket.is_versioned:
        return 0
    return key_bytes(name, key_name)


def object_size(name: str, key_name: str, version_id: str | None = None) -> int | None:
    bucket = _bucket(name)
    if bucket is None:
        return None
    versions = list(bucket.keys.getlist(key_name, []))
    if version_id is not None:
        versions = [v for v in versions if getattr(v, "version_id", None) == version_id]
    return _size(versions[-1]) if versions else None


def has_upload(name: str, upload_id: str, key_name: str) -> bool:
    """Whether the bucket holds an unfinished upload of that id, for that key."""
    bucket = _bucket(name)
    upload = None if bucket is None else bucket.multiparts.get(upload_id)
    return upload is not None and upload.key_name == key_name


def completed_upload(name: str, upload_id: str, key_name: str) -> bool:
    """Whether the key's current version was made by completing that upload: a repeated
    ``CompleteMultipartUpload`` (S3 tells applications to retry one whose answer was lost) is
    answered with that object, as S3 and moto answer it."""
    versions = key_versions(name, key_name)
    made_by = getattr(versions[-1], "multipart", None) if versions else None
    return made_by is not None and getattr(made_by, "id", None) == upload_id


def part_size(name: str, upload_id: str, part_number: int) -> int:
    bucket = _bucket(name)
    upload = None if bucket is None else bucket.multiparts.get(upload_id)
    return 0 if upload is None else _size(upload.parts.get(part_number))


def key_versions(name: str, key_name: str) -> list[Any] | None:
    """The stored versions of one key (empty when it has none); None without the bucket."""
    bucket = _bucket(name)
    return None if bucket is None else list(bucket.keys.getlist(key_name, []))


def versioning(name: str) -> str | None:
    bucket = _bucket(name)
    return None if bucket is None else bucket.versioning_status


def is_key_record(value: Any) -> bool:
    """Whether ``value`` is a stored version of a key, as moto keeps them."""
    return isinstance(value, _kinds())


def bucket_keys(name: str) -> tuple[dict[str, list[Any]], str | None] | None:
    """Every key of the bucket with its stored versions, and its versioning status."""
    bucket = _bucket(name)
    if bucket is None:
        return None
    keys = {key_name: list(versions) for key_name, versions in list(dict.items(bucket.keys))}
    return keys, bucket.versioning_status


def restore_keys(name: str, keys: dict[str, list[Any]], versioning: str | None) -> None:
    """Put keys (with their versions) back into an existing bucket."""
    bucket = _bucket(name)
    if bucket is None:
        return
    for key_name, versions in keys.items():
        dict.__setitem__(bucket.keys, key_name, versions)
    if versioning is not None:
        bucket.versioning_status = versioning


def _upload_kind() -> Any:
    from moto.s3.models import FakeMultipart

    return FakeMultipart


def uploads(name: str) -> dict[str, Any] | None:
    """The bucket's unfinished multipart uploads by id; None without the bucket."""
    bucket = _bucket(name)
    return None if bucket is None else dict(bucket.multiparts)


def upload(name: str, upload_id: str) -> Any | None:
    """One unfinished multipart upload (with its parts), or None."""
    bucket = _bucket(name)
    return None if bucket is None else bucket.multiparts.get(upload_id)


def upload_parts(record: Any) -> dict[int, Any]:
    """The parts an upload holds by number."""
    return dict(record.parts)


def upload_head(record: Any) -> Any:
    """A copy of an upload without its parts: what it was started with (key, metadata, ...)."""
    head = copy.copy(record)
    head.parts, head.partlist = {}, []
    return head


def is_upload_record(value: Any) -> bool:
    """Whether ``value`` is an unfinished multipart upload, as moto keeps them."""
    return isinstance(value, _upload_kind())


def restore_upload(name: str, head: Any, parts: dict[int, Any]) -> None:
    """Put an unfinished upload (a head of ``upload_head``, with its parts) back into an
    existing bucket."""
    bucket = _bucket(name)
    if bucket is None:
        return
    head.parts, head.partlist = dict(parts), sorted(parts)
    bucket.multiparts[head.id] = head


def put(name: str, key_name: str, data: bytes) -> None:
    """Store an object (a seed's), as a PUT would."""
    _backend().put_object(name, key_name, data)


def current_objects(name: str) -> dict[str, bytes]:
    """Each key's current content (its latest version, unless deleted)."""
    found = bucket_keys(name)
    if found is None:
        return {}
    contents: dict[str, bytes] = {}
    for key_name, versions in found[0].items():
        latest = versions[-1] if versions else None
        if isinstance(latest, _kinds()[0]):
            contents[key_name] = bytes(latest.value)
    return contents
