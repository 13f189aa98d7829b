"""AWS Signature Version 2 as S3 checks it: ``Authorization: AWS <key>:<signature>`` and presigned
URLs (``AWSAccessKeyId``, ``Signature``, ``Expires`` in the query).

The string to sign follows botocore's ``HmacV1Auth`` and ``HmacV1QueryAuth``::

    METHOD \\n Content-MD5 \\n Content-Type \\n Date (the Expires value when presigned) \\n
    x-amz-name:value \\n ... (lower-cased, sorted, repeated values joined by commas)
    /bucket/key?sub-resource=value&...  (the path as sent; the sub-resources below, sorted)

and the signature is the base64 HMAC-SHA1 of it under the secret key. When an ``x-amz-date``
header is sent, S3 signs an empty Date line; botocore signs its Date header: both are accepted.
In a presigned URL, ``x-amz-*``, ``content-type`` and ``content-md5`` query parameters stand for
the headers of those names (botocore moves them there).
"""

from __future__ import annotations

import base64
import email.utils
import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from urllib.parse import unquote

from altostratus.emulator.s3.errors import S3Error, access_denied, signature_mismatch
from altostratus.emulator.serving.server import PRESERVED_HEADER_NAMES

SCHEME = "AWS"

QUERY_FIELDS = ("AWSAccessKeyId", "Signature", "Expires")
SUBRESOURCES = frozenset(
    {
        "accelerate",
        "acl",
        "analytics",
        "cors",
        "defaultObjectAcl",
        "delete",
        "inventory",
        "lifecycle",
        "location",
        "logging",
        "metrics",
        "notification",
        "object-lock",
        "partNumber",
        "policy",
        "replication",
        "requestPayment",
        "response-cache-control",
        "response-content-disposition",
        "response-content-encoding",
        "response-content-language",
        "response-content-type",
        "response-expires",
        "restore",
        "select",
        "select-type",
        "storageClass",
        "tagging",
        "torrent",
        "uploadId",
        "uploads",
        "versionId",
        "versioning",
        "versions",
        "website",
    }
)
"""The query parameters that are part of the signed resource: botocore's ``QSAOfInterest``."""


@dataclass(frozen=True)
class Signature:
    """What a Signature V2 request claims about its signer."""

    access_key_id: str
    signature: str
    expires: int | None
    """When a presigned URL stops working, in seconds since the epoch; None for the header form."""
    date: str = ""
    """The header form's ``x-amz-date`` (or else ``Date``), as sent."""

    def expires_at(self) -> float | None:
        return None if self.expires is None else float(self.expires)

    def signed_at(self) -> float | None:
        """When a header-signed request says it was signed; None for a presigned URL."""
        if self.expires is not None:
            return None
        try:
            return email.utils.parsedate_to_datetime(self.date).timestamp()
        except (TypeError, ValueError):
            pass
        try:
            return (
                datetime.strptime(self.date, "%Y%m%dT%H%M%SZ")
                .replace(tzinfo=timezone.utc)
                .timestamp()
            )
        except ValueError:
            raise access_denied(
                "AWS authentication requires a valid Date or x-amz-date header"
            ) from None


def is_v2_header(header: str) -> bool:
    return header.strip().partition(" ")[0] == SCHEME


def is_v2_query(query: Mapping[str, str]) -> bool:
    return any(name in query for name in QUERY_FIELDS)


def from_header(environ: Mapping[str, Any], header: str) -> Signature:
    """The claims of ``Authorization: AWS <key>:<signature>``; a Date or x-amz-date is required."""
    credential = header.strip().partition(" ")[2].strip()
    key_id, colon, signature = credential.rpartition(":")
    if not colon or not key_id or not signature:
        raise S3Error(
            400,
            "InvalidArgument",
            "AWS authorization header is invalid.  Expected AwsAccessKeyId:signature",
        )
    date = str(environ.get("HTTP_X_AMZ_DATE") or environ.get("HTTP_DATE") or "").strip()
    if not date:
        raise access_denied("AWS authentication requires a valid Date or x-amz-date header")
    return Signature(key_id, signature, None, date)


def from_query(query: Mapping[str, str]) -> Signature:
    """The claims of a presigned URL; all three of its parameters are required."""
    if not all(query.get(name) for name in QUERY_FIELDS):
        raise access_denied(
            "Query-string authentication requires the Signature, Expires and AWSAccessKeyId "
            "parameters"
        )
    try:
        expires = int(query["Expires"])
    except ValueError:
        raise access_denied(
            f"Invalid date (should be seconds since epoch): {query['Expires']}"
        ) from None
    return Signature(query["AWSAccessKeyId"], query["Signature"], expires)


def _headers(
    environ: Mapping[str, Any], query: Mapping[str, str], presigned: bool
) -> dict[str, str]:
    """Lower-cased request headers; in a presigned URL, the query's header parameters too."""
    # The servers keep the spelling of header names with underscores (S3 metadata may hold them).
    preserved = environ.get(PRESERVED_HEADER_NAMES) or {}
    headers: dict[str, str] = {}
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            name = preserved.get(key) or key[5:].replace("_", "-")
            # The bytes sent, which clients send as UTF-8 (a WSGI string holds them as latin-1).
            sent = str(value).encode("latin-1", "replace")
            headers[str(name).lower()] = sent.decode("utf-8", "surrogateescape")
    if environ.get("CONTENT_TYPE"):
        headers["content-type"] = str(environ["CONTENT_TYPE"])
    if presigned:
        for name, value in query.items():
            lowered = name.lower()
            if lowered.startswith("x-amz-") or lowered in ("content-type", "content-md5"):
                headers.setdefault(lowered, value)
    return headers


def canonical_resource(path: str, query_string: str) -> list[str]:
    """The signed resource: the path, then the sub-resources sorted by name.

    A sub-resource sent with an empty value (``?uploads=``) may have been signed with or without
    its ``=``; both spellings are answered, the one as sent first.
    """
    items = []
    for item in query_string.split("&"):
        name, sep, value = item.partition("=")
        if name in SUBRESOURCES:
            items.append((name, sep, unquote(value)))
    if not items:
        return [path]
    items.sort(key=lambda item: item[0])
    sent = path + "?" + "&".join(f"{name}{sep}{value}" for name, sep, value in items)
    bare = path + "?" + "&".join(f"{name}={value}" if value else name for name, _, value in items)
    return [sent] if bare == sent else [sent, bare]


def strings_to_sign(
    environ: Mapping[str, Any], query: Mapping[str, str], signature: Signature, path: str
) -> list[str]:
    """Every string a client may have signed for this request, the likeliest first."""
    headers = _headers(environ, query, signature.expires is not None)
    amz = sorted(
        (name, value.strip()) for name, value in headers.items() if name.startswith("x-amz-")
    )
    amz_lines = "".join(f"{name}:{value}\n" for name, value in amz)
    if signature.expires is not None:
        dates = [query["Expires"]]  # as sent: the integer's spelling is signed
    elif "x-amz-date" in headers:
        dates = ["", headers.get("date", "").strip()]
    else:
        dates = [headers.get("date", "").strip()]
    head = "\n".join(
        [
            str(environ["REQUEST_METHOD"]).upper(),
            headers.get("content-md5", "").strip(),
            headers.get("content-type", "").strip(),
        ]
    )
    resources = canonical_resource(path, str(environ.get("QUERY_STRING", "")))
    return [
        f"{head}\n{date}\n{amz_lines}{resource}"
        for date in dict.fromkeys(dates)
        for resource in resources
    ]


def _resource_paths(paths: list[str]) -> list[str]:
    """The path spellings; a bucket-level one first as S3 and botocore sign it (``/bucket/``),
    then as sent."""
    spellings = []
    for path in paths:
        if path.count("/") == 1 and len(path) > 1:
            spellings.append(path + "/")
        spellings.append(path)
    return list(dict.fromkeys(spellings))


def sign(secret: str, text: str) -> str:
    data = text.encode("utf-8", "surrogateescape")
    digest = hmac.digest(secret.encode("utf-8"), data, hashlib.sha1)
    return base64.b64encode(digest).decode("ascii")


def verify(
    environ: Mapping[str, Any],
    query: Mapping[str, str],
    signature: Signature,
    secret: str,
    paths: list[str],
) -> None:
    """Check the signature against every candidate string to sign.

    Raises ``SignatureDoesNotMatch`` carrying the likeliest string to sign (and its bytes in hex),
    as S3 does, so a client author can compare it with their own.
    """
    provided = signature.signature.encode("utf-8", "backslashreplace")
    first = ""
    for path in _resource_paths(paths):
        for text in strings_to_sign(environ, query, signature, path):
            if hmac.compare_digest(sign(secret, text).encode(), provided):
                return
            first = first or text
    raise signature_mismatch(
        signature.access_key_id,
        first,
        signature.signature,
        StringToSignBytes=" ".join(
            f"{byte:02x}" for byte in first.encode("utf-8", "surrogateescape")
        ),
    )
