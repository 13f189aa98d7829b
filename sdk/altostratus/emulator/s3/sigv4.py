"""AWS Signature Version 4 as S3 checks it: the Authorization header form and presigned URLs.

The canonical request, string to sign and signing key follow botocore's ``S3SigV4Auth`` and
``S3SigV4QueryAuth``: the path is signed as sent (S3 does not normalize it), query names and values
are URI-encoded and sorted, header values are trimmed with inner runs of spaces collapsed.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote, unquote

from altostratus.emulator.s3.errors import S3Error, access_denied, signature_mismatch

ALGORITHM = "AWS4-HMAC-SHA256"
UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD"
EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
MAX_PRESIGNED_SECONDS = 7 * 24 * 3600
_QUERY_FIELDS = (
    "X-Amz-Algorithm",
    "X-Amz-Credential",
    "X-Amz-Date",
    "X-Amz-Expires",
    "X-Amz-SignedHeaders",
    "X-Amz-Signature",
)


@dataclass(frozen=True)
class Signature:
    """What a request claims about its signer, read from the header or the query."""

    access_key_id: str
    scope_date: str
    region: str
    service: str
    amz_date: str
    signed_headers: tuple[str, ...]
    signature: str
    payload_hash: str
    expires: int | None
    """Seconds a presigned URL stays valid; None for the header form."""

    @property
    def scope(self) -> str:
        return f"{self.scope_date}/{self.region}/{self.service}/aws4_request"

    def expires_at(self) -> float | None:
        if self.expires is None:
            return None
        return parse_amz_date(self.amz_date).timestamp() + self.expires

    def signed_at(self) -> float | None:
        """When a header-signed request says it was signed; None for a presigned URL."""
        return None if self.expires is not None else parse_amz_date(self.amz_date).timestamp()


def _malformed(message: str) -> S3Error:
    return S3Error(400, "AuthorizationHeaderMalformed", message)


def parse_amz_date(value: str) -> datetime:
    try:
        return datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        raise access_denied("X-Amz-Date must be an ISO 8601 basic timestamp") from None


def _credential(value: str) -> tuple[str, str, str, str]:
    parts = value.split("/")
    if len(parts) != 5 or parts[4] != "aws4_request" or not parts[0]:
        raise _malformed("the Credential is not <key>/<date>/<region>/<service>/aws4_request")
    if parts[3] != "s3":
        raise _malformed(f"the Credential names service {parts[3]!r}; expected 's3'")
    return parts[0], parts[1], parts[2], parts[3]


def from_header(environ: Mapping[str, Any], header: str) -> Signature:
    """The claims of an ``Authorization: AWS4-HMAC-SHA256 ...`` header."""
    scheme, _, rest = header.strip().partition(" ")
    if scheme != ALGORITHM:
        raise S3Error(
            400,
            "InvalidRequest",
            "The authorization mechanism you have provided is not supported. "
            "Please use AWS4-HMAC-SHA256.",
        )
    fields: dict[str, str] = {}
    for item in rest.split(","):
        name, sep, value = item.strip().partition("=")
        if sep:
            fields[name] = value
    if not {"Credential", "SignedHeaders", "Signature"} <= fields.keys():
        raise _malformed("the Authorization header lacks Credential, SignedHeaders or Signature")
    key_id, date, region, service = _credential(fields["Credential"])
    amz_date = environ.get("HTTP_X_AMZ_DATE", "")
    if not amz_date:
        raise access_denied("AWS authentication requires a valid x-amz-date header")
    return Signature(
        access_key_id=key_id,
        scope_date=date,
        region=region,
        service=service,
        amz_date=amz_date,
        signed_headers=tuple(fields["SignedHeaders"].split(";")),
        signature=fields["Signature"],
        payload_hash=environ.get("HTTP_X_AMZ_CONTENT_SHA256", ""),
        expires=None,
    )


def from_query(query: Mapping[str, str]) -> Signature:
    """The claims of a presigned URL's ``X-Amz-*`` parameters."""
    missing = [name for name in _QUERY_FIELDS if name not in query]
    if missing:
        raise S3Error(
            400,
            "AuthorizationQueryParametersError",
            f"Query-string authentication requires {', '.join(missing)}.",
        )
    if query["X-Amz-Algorithm"] != ALGORITHM:
        raise S3Error(
            400, "AuthorizationQueryParametersError", "X-Amz-Algorithm must be AWS4-HMAC-SHA256."
        )
    try:
        expires = int(query["X-Amz-Expires"])
    except ValueError:
        expires = -1
    if not 0 < expires <= MAX_PRESIGNED_SECONDS:
        raise S3Error(
            400,
            "AuthorizationQueryParametersError",
            "X-Amz-Expires must be between 1 and 604800 seconds.",
        )
    key_id, date, region, service = _credential(query["X-Amz-Credential"])
    return Signature(
        access_key_id=key_id,
        scope_date=date,
        region=region,
        service=service,
        amz_date=query["X-Amz-Date"],
        signed_headers=tuple(query["X-Amz-SignedHeaders"].split(";")),
        signature=query["X-Amz-Signature"],
        payload_hash=query.get("X-Amz-Content-Sha256", UNSIGNED_PAYLOAD),
        expires=expires,
    )


def _header_value(environ: Mapping[str, Any], name: str) -> str:
    if name in ("content-type", "content-length"):
        key = name.upper().replace("-", "_")
    else:
        key = "HTTP_" + name.upper().replace("-", "_")
    # A WSGI header holds the bytes sent as latin-1; the signer signed those bytes, which
    # clients send as UTF-8: read them back as such (undecodable bytes kept as they are).
    sent = str(environ.get(key, "")).encode("latin-1", "replace")
    return " ".join(sent.decode("utf-8", "surrogateescape").split())


def canonical_query(query_string: str, presigned: bool) -> str:
    pairs = []
    for item in query_string.split("&"):
        if not item:
            continue
        name, _, value = item.partition("=")
        name, value = unquote(name), unquote(value)
        if presigned and name == "X-Amz-Signature":
            continue
        pairs.append((quote(name, safe="-_.~"), quote(value, safe="-_.~")))
    return "&".join(f"{name}={value}" for name, value in sorted(pairs))


def canonical_request(
    environ: Mapping[str, Any], signature: Signature, path: str, payload_hash: str
) -> str:
    headers = "".join(
        f"{name}:{_header_value(environ, name)}\n" for name in signature.signed_headers
    )
    return "\n".join(
        [
            environ["REQUEST_METHOD"].upper(),
            path,
            canonical_query(environ.get("QUERY_STRING", ""), signature.expires is not None),
            headers,
            ";".join(signature.signed_headers),
            payload_hash,
        ]
    )


def string_to_sign(signature: Signature, canonical: str) -> str:
    digest = hashlib.sha256(canonical.encode("utf-8", "surrogateescape")).hexdigest()
    return f"{ALGORITHM}\n{signature.amz_date}\n{signature.scope}\n{digest}"


@functools.lru_cache(maxsize=256)
def signing_key(secret: str, date: str, region: str, service: str) -> bytes:
    key = hmac.digest(("AWS4" + secret).encode("utf-8"), date.encode("utf-8"), "sha256")
    for part in (region, service, "aws4_request"):
        key = hmac.digest(key, part.encode("utf-8"), "sha256")
    return key


def sign(key: bytes, text: str) -> str:
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def verify(
    environ: Mapping[str, Any],
    signature: Signature,
    secret: str,
    paths: list[str],
    payload_hash: str,
) -> bytes:
    """Check the signature against every candidate spelling of the path; answer the signing key.

    Raises ``SignatureDoesNotMatch`` carrying the canonical request and string to sign computed
    here, as S3 does, so a client author can compare them with their own.
    """
    if signature.amz_date[:8] != signature.scope_date:
        raise S3Error(
            403, "SignatureDoesNotMatch", "The credential scope date does not match X-Amz-Date."
        )
    key = signing_key(secret, signature.scope_date, signature.region, signature.service)
    provided = signature.signature.encode("utf-8", "backslashreplace")
    first: tuple[str, str] | None = None
    for path in paths:
        canonical = canonical_request(environ, signature, path, payload_hash)
        to_sign = string_to_sign(signature, canonical)
        if hmac.compare_digest(sign(key, to_sign).encode(), provided):
            return key
        first = first or (canonical, to_sign)
    canonical, to_sign = first or ("", "")
    raise signature_mismatch(
        signature.access_key_id, to_sign, signature.signature, CanonicalRequest=canonical
    )
