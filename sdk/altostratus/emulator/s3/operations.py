"""What a path-style S3 request does, as far as authorization and the size limit care.

A key is the request's path as sent, percent-decoded once as UTF-8, as S3 reads it: ``%41``
names the key ``A`` and ``%2541`` the key ``%41``, and a path whose bytes are not UTF-8 is refused
(400 ``InvalidURI``). moto is handed the same path as sent, so it reads the same key.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import quote, unquote_to_bytes, urlsplit

from altostratus.emulator.s3 import copy_source
from altostratus.emulator.s3.copy_source import CopySource
from altostratus.emulator.s3.errors import S3Error

_SUBRESOURCES = frozenset(
    {"acl", "tagging", "retention", "legal-hold", "restore", "select", "attributes", "torrent"}
)
_BUCKET_SUBRESOURCES = frozenset(
    {
        "accelerate",
        "acl",
        "analytics",
        "cors",
        "encryption",
        "intelligent-tiering",
        "inventory",
        "lifecycle",
        "logging",
        "metadataTable",
        "metrics",
        "notification",
        "object-lock",
        "ownershipControls",
        "policy",
        "publicAccessBlock",
        "replication",
        "requestPayment",
        "tagging",
        "versioning",
        "website",
    }
)
"""The query names that make a bucket's PUT or DELETE act on its configuration, not on it."""


class Kind(enum.Enum):
    LIST_BUCKETS = "ListBuckets"
    CREATE_BUCKET = "CreateBucket"
    DELETE_BUCKET = "DeleteBucket"
    POST_OBJECT = "PostObject"
    """An HTML form upload: a bucket's POST that is not DeleteObjects (``?delete``)."""
    PUT_OBJECT = "PutObject"
    UPLOAD_PART = "UploadPart"
    COMPLETE_UPLOAD = "CompleteMultipartUpload"
    OTHER = "Other"


@dataclass(frozen=True)
class Touched:
    """What a write may change in its bucket: the versions of ``keys``, the parts of
    ``uploads``, a new upload (``started``: its id is moto's answer), or (``whole``) anything
    in it."""

    bucket: str
    keys: tuple[str, ...] = ()
    uploads: tuple[str, ...] = ()
    started: bool = False
    whole: bool = False


@dataclass(frozen=True)
class Operation:
    kind: Kind
    bucket: str
    key: str
    upload_id: str | None = None
    part_number: int | None = None
    copy_source: CopySource | None = None
    touched: Touched | None = None
    """What the request may change; None when it changes no object (a read, a new upload)."""

    @property
    def resource(self) -> str:
        return "/" + "/".join(part for part in (self.bucket, self.key) if part)


def raw_path(environ: Mapping[str, Any]) -> str:
    """The path as the client sent it, still percent-encoded (``RAW_URI`` or ``REQUEST_URI``;
    an application called without a server has only ``PATH_INFO``, which is encoded again)."""
    uri = str(environ.get("RAW_URI") or environ.get("REQUEST_URI") or "")
    if uri.startswith(("http://", "https://")):
        uri = urlsplit(uri).path
    path = uri.split("?", 1)[0]
    if path:
        return path
    text = str(environ.get("PATH_INFO", "/")).encode("latin-1").decode("utf-8", "replace")
    return quote(text, safe="/~")


def path_bytes(environ: Mapping[str, Any]) -> bytes:
    """The path's bytes, percent-decoded once (a WSGI string holds bytes as latin-1)."""
    return unquote_to_bytes(raw_path(environ).encode("latin-1", "replace"))


def decoded_path(environ: Mapping[str, Any]) -> str:
    """The path as S3 reads it: decoded once, as UTF-8."""
    try:
        return path_bytes(environ).decode("utf-8")
    except UnicodeDecodeError:
        raise S3Error(400, "InvalidURI", "Couldn't parse the specified URI.") from None


def signing_paths(environ: Mapping[str, Any]) -> list[str]:
    """Spellings of the path a client may have signed: as sent, then canonically encoded."""
    sent = raw_path(environ)
    canonical = quote(decoded_path(environ), safe="/~")
    return [sent] if canonical == sent else [sent, canonical]


def _touched(method: str, bucket: str, key: str, query: Mapping[str, str]) -> Touched | None:
    if method not in ("PUT", "POST", "DELETE"):
        return None
    if not key:
        return Touched(bucket, whole=True)  # DeleteObjects, or a setting (versioning, ...)
    upload_id = query.get("uploadId")
    if method == "POST" and "uploads" in query:
        return Touched(bucket, started=True)  # a new upload: no bytes yet, but kept
    if method == "POST" and upload_id:
        return Touched(bucket, (key,), (upload_id,))  # its parts become the key
    if upload_id:
        return Touched(bucket, uploads=(upload_id,))  # a part, or the upload aborted
    return Touched(bucket, keys=(key,))


def classify(environ: Mapping[str, Any], query: Mapping[str, str]) -> Operation:
    """What the request does; any request naming a copy source carries it, to be authorized."""
    method = str(environ["REQUEST_METHOD"]).upper()
    bucket, _, key = decoded_path(environ).removeprefix("/").partition("/")
    source = copy_source.read(environ)
    return replace(
        _classify(method, bucket, key, query, source),
        touched=_touched(method, bucket, key, query) if bucket else None,
    )


def _classify(
    method: str, bucket: str, key: str, query: Mapping[str, str], source: CopySource | None
) -> Operation:
    if not bucket:
        kind = Kind.LIST_BUCKETS if method == "GET" else Kind.OTHER
        return Operation(kind, "", "", copy_source=source)
    if not key:
        # Without a configuration sub-resource, a bucket's PUT creates it and its DELETE removes
        # it, whatever else the query holds (signing parameters, SDKs' ``x-id``, anything).
        configures = not _BUCKET_SUBRESOURCES.isdisjoint(query)
        if method == "PUT" and not configures:
            return Operation(Kind.CREATE_BUCKET, bucket, "")
        if method == "DELETE" and not configures:
            return Operation(Kind.DELETE_BUCKET, bucket, "")
        if method == "POST" and "delete" not in query:
            return Operation(Kind.POST_OBJECT, bucket, "")
        return Operation(Kind.OTHER, bucket, "", copy_source=source)
    upload_id = query.get("uploadId")
    if method == "POST" and upload_id:
        return Operation(Kind.COMPLETE_UPLOAD, bucket, key, upload_id=upload_id, copy_source=source)
    if method != "PUT" or _SUBRESOURCES & set(query):
        return Operation(Kind.OTHER, bucket, key, upload_id=upload_id, copy_source=source)
    part = query.get("partNumber", "")
    if upload_id and part.isdigit():
        return Operation(Kind.UPLOAD_PART, bucket, key, upload_id, int(part), source)
    return Operation(Kind.PUT_OBJECT, bucket, key, copy_source=source)
