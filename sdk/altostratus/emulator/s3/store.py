"""The emulator's buckets inside moto's S3 backend.

moto keeps its backends in module-level registries and replaces the backend object when it is
reset, so every call here looks the backend up again instead of keeping a reference. Sizes are
read from moto's records: every stored version of every key, plus the parts of unfinished
multipart uploads. ``used_bytes`` counts a whole bucket; the front counts it once and keeps the
count by measuring only what each write touches (``key_bytes``, ``upload_bytes``).

This is the one module of the package that touches moto's private members: a key's
``_version_id``, ``_is_versioned``, ``_etag``, ``_expiry`` and ``_metadata``, which the state
folder keeps as plain values (``key_head``, ``key_from_head``). Checked against moto 5.1 to 5.2
(``pyproject.toml`` bounds it below 5.3, and CI runs the S3 and state-folder tests on the newest
release past that bound); a test holds every other module of the package to moto's public names.
"""

from __future__ import annotations

import os
import typing
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


# Stored versions and uploads as plain values (the state folder's object files), and back.

#: A stored version's fields kept as they are: moto's attribute, the name it is kept under.
_KEY_FIELDS = (
    ("_storage_class", "storage_class"),
    ("website_redirect_location", "website_redirect_location"),
    ("checksum_algorithm", "checksum_algorithm"),
    ("encryption", "encryption"),
    ("kms_key_id", "kms_key_id"),
    ("bucket_key_enabled", "bucket_key_enabled"),
    ("lock_mode", "lock_mode"),
    ("lock_legal_status", "lock_legal_status"),
    ("lock_until", "lock_until"),
    ("checksum_value", "checksum_value"),
    ("checksum_type", "checksum_type"),
    ("checksum_parts", "checksum_parts"),
)
_UPLOAD_FIELDS = ("storage", "sse_encryption", "kms_key_id")
_PLAIN = (str, int, bool, type(None))


class NotAHead(ValueError):
    """Plain values that are not a stored version or an upload; ``str()`` says which field."""


def version_head(version: Any) -> dict[str, Any]:
    """What a stored version is, as plain values, without its bytes (``version_bytes``): its
    key, version id, ETag, content type and metadata, last modified, and the rest moto keeps
    on it; a completed multipart object's upload head and its parts' ETags and sizes (moto
    frees the parts' bytes once the object is made). ACLs are not kept."""
    if not isinstance(version, _kinds()[0]):  # a delete marker
        return {
            "delete_marker": True,
            "name": version.name,
            "version_id": version.version_id,
            "last_modified": version.last_modified.isoformat(),
        }
    version.etag  # noqa: B018 - computed on first use: kept as computed
    head: dict[str, Any] = {
        "name": version.name,
        "version_id": version._version_id,
        "is_versioned": bool(version._is_versioned),
        "etag": version._etag,
        "last_modified": version.last_modified.isoformat(),
        "expiry": None if version._expiry is None else version._expiry.isoformat(),
        "metadata": {str(k): str(v) for k, v in version.metadata.items()},
        "owner": version.account_id,
        "region": version.region_name,
        "bucket": version.bucket_name,
    }
    head.update({kept: _plain(getattr(version, name, None)) for name, kept in _KEY_FIELDS})
    if version.multipart is not None:
        head["multipart"] = upload_head_values(version.multipart)
        head["multipart"]["parts"] = {
            str(n): {"etag": part._etag, "size": part.contentsize}
            for n, part in version.multipart.parts.items()
        }
    return head


def version_bytes(version: Any) -> bytes:
    """A stored version's bytes (none for a delete marker)."""
    return bytes(version.value) if isinstance(version, _kinds()[0]) else b""


def upload_head_values(record: Any) -> dict[str, Any]:
    """What an upload was started with, as plain values (its parts apart)."""
    head = {
        "id": record.id,
        "key_name": record.key_name,
        "metadata": {str(k): str(v) for k, v in (record.metadata or {}).items()},
        "tags": None if record.tags is None else {str(k): str(v) for k, v in record.tags.items()},
        "owner": record.account_id,
        "region": record.region_name,
    }
    head.update({name: _plain(getattr(record, name, None)) for name in _UPLOAD_FIELDS})
    return head


def _plain(value: Any) -> Any:
    return value if isinstance(value, _PLAIN) else str(value)


def make_version(head: Any, data: bytes) -> Any:
    """The stored version ``version_head`` gave ``head`` for, with ``data``; ``NotAHead`` for
    anything else."""
    from moto.s3.models import FakeDeleteMarker, FakeKey

    _expect_dict(head, "head")
    name: Any = head.get("name")  # an upload's part is named by its number
    if not isinstance(name, (str, int)) or isinstance(name, bool):
        raise NotAHead("name is not a text")
    name = typing.cast(str, name)
    modified = _moment(head, "last_modified")
    if head.get("delete_marker") is True:
        marker = FakeDeleteMarker(FakeKey(name, b"", moto_account_id(), "us-east-1"))
        marker._version_id = _text(head, "version_id")
        marker.last_modified = modified
        return marker
    values = {kept: head.get(kept) for _, kept in _KEY_FIELDS}
    if not all(isinstance(value, _PLAIN) for value in values.values()):
        raise NotAHead("a field of another type")
    version = FakeKey(
        name,
        data,
        _text(head, "owner"),
        _text(head, "region"),
        storage=values["storage_class"],
        etag=_text(head, "etag"),
        is_versioned=head.get("is_versioned") is True,
        version_id=_optional_text(head, "version_id"),
        bucket_name=_optional_text(head, "bucket"),
    )
    for name_, kept in _KEY_FIELDS:
        setattr(version, name_, values[kept])
    version.last_modified = modified
    version._expiry = None if head.get("expiry") is None else _moment(head, "expiry")
    version._metadata.clear()
    for key, value in _texts(head, "metadata").items():
        version._metadata[key] = value
    if head.get("multipart") is not None:
        parts = head["multipart"].get("parts")
        if not isinstance(parts, dict):
            raise NotAHead("multipart.parts is not an object")
        made = {}
        for number, part in parts.items():
            size = part.get("size") if isinstance(part, dict) else None
            if not number.isdigit() or type(size) is not int:
                raise NotAHead("multipart.parts holds another shape")
            made[int(number)] = made_part = FakeKey(int(number), b"", version.account_id, "aws")  # type: ignore[arg-type]
            made_part._etag, made_part.contentsize = _text(part, "etag"), size
            made_part.dispose()  # its bytes are the object's, as moto leaves a completed part
        version.multipart = make_upload(head["multipart"], made)
    return version


def make_upload(head: Any, parts: dict[int, Any]) -> Any:
    """The unfinished upload ``upload_head_values`` gave ``head`` for, holding ``parts``."""
    from requests.structures import CaseInsensitiveDict

    _expect_dict(head, "upload")
    tags = head.get("tags")
    values = {name: head.get(name) for name in _UPLOAD_FIELDS}
    if not all(isinstance(value, _PLAIN) for value in values.values()):
        raise NotAHead("a field of another type")
    record = _upload_kind()(
        _text(head, "key_name"),
        CaseInsensitiveDict(_texts(head, "metadata")),
        _text(head, "owner"),
        _text(head, "region"),
        storage=values["storage"],
        tags=None if tags is None else _texts(head, "tags"),
        sse_encryption=values["sse_encryption"],
        kms_key_id=values["kms_key_id"],
    )
    record.id = _text(head, "id")
    record.parts, record.partlist = dict(parts), sorted(parts)
    return record


def _expect_dict(value: Any, what: str) -> None:
    if not isinstance(value, dict):
        raise NotAHead(f"{what} is not an object")


def _text(head: dict[str, Any], name: str) -> str:
    value = head.get(name)
    if not isinstance(value, str):
        raise NotAHead(f"{name} is not a text")
    return value


def _optional_text(head: dict[str, Any], name: str) -> str | None:
    return None if head.get(name) is None else _text(head, name)


def _texts(head: dict[str, Any], name: str) -> dict[str, str]:
    value = head.get(name)
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise NotAHead(f"{name} is not a map of texts")
    return value


def _moment(head: dict[str, Any], name: str) -> datetime:
    try:
        return datetime.fromisoformat(_text(head, name))
    except ValueError:
        raise NotAHead(f"{name} is not a moment") from None
