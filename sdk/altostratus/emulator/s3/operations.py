"""What a path-style S3 request does, as far as authorization and the size limit care."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote, urlsplit

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
class CopySource:
    bucket: str
    key: str
    version_id: str | None
    length: int | None
    """Bytes named by ``x-amz-copy-source-range``; None for the whole object."""


@dataclass(frozen=True)
class Operation:
    kind: Kind
    bucket: str
    key: str
    upload_id: str | None = None
    part_number: int | None = None
    copy_source: CopySource | None = None

    @property
    def resource(self) -> str:
        return "/" + "/".join(part for part in (self.bucket, self.key) if part)


def raw_path(environ: Mapping[str, Any]) -> str:
    """The path as the client sent it, still percent-encoded."""
    uri = str(environ.get("RAW_URI") or environ.get("REQUEST_URI") or "")
    if uri.startswith(("http://", "https://")):
        uri = urlsplit(uri).path
    path = uri.split("?", 1)[0]
    return path or quote(decoded_path(environ), safe="/~")


def decoded_path(environ: Mapping[str, Any]) -> str:
    text = str(environ.get("PATH_INFO", "/"))
    return text.encode("latin-1").decode("utf-8", "replace")


def signing_paths(environ: Mapping[str, Any]) -> list[str]:
    """Spellings of the path a client may have signed: as sent, then canonically encoded."""
    sent = raw_path(environ)
    canonical = quote(decoded_path(environ), safe="/~")
    return [sent] if canonical == sent else [sent, canonical]


def _copy_source(environ: Mapping[str, Any]) -> CopySource | None:
    header = str(environ.get("HTTP_X_AMZ_COPY_SOURCE", ""))
    if not header:
        return None
    path, _, version = header.partition("?versionId=")
    bucket, _, key = unquote(path).lstrip("/").partition("/")
    length = None
    first, sep, last = (
        str(environ.get("HTTP_X_AMZ_COPY_SOURCE_RANGE", "")).removeprefix("bytes=").partition("-")
    )
    if sep and first.isdigit() and last.isdigit():
        length = int(last) - int(first) + 1
    return CopySource(bucket, key, unquote(version) or None, length)


def classify(environ: Mapping[str, Any], query: Mapping[str, str]) -> Operation:
    method = str(environ["REQUEST_METHOD"]).upper()
    bucket, _, key = unquote(raw_path(environ)).lstrip("/").partition("/")
    if not bucket:
        return Operation(Kind.LIST_BUCKETS if method == "GET" else Kind.OTHER, "", "")
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
        return Operation(Kind.OTHER, bucket, "")
    upload_id = query.get("uploadId")
    if method == "POST" and upload_id:
        return Operation(Kind.COMPLETE_UPLOAD, bucket, key, upload_id=upload_id)
    if method != "PUT" or _SUBRESOURCES & set(query):
        return Operation(Kind.OTHER, bucket, key)
    source = _copy_source(environ)
    part = query.get("partNumber", "")
    if upload_id and part.isdigit():
        return Operation(Kind.UPLOAD_PART, bucket, key, upload_id, int(part), source)
    return Operation(Kind.PUT_OBJECT, bucket, key, copy_source=source)
