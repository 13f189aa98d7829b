"""Who signed an S3 request, and whether they may touch a bucket: the one place the front reads a
signature (V4 or V2, header or presigned), looks up its credential, checks it, judges a presigned
URL's expiry, and checks that the signer owns the bucket.

The order of refusals: a request with no recognisable signature (``AccessDenied``), an unknown key
(``InvalidAccessKeyId``), a signature that does not match (``SignatureDoesNotMatch``), an
``x-amz-*`` header the Signature V4 does not sign (``AccessDenied``, listing it in
``HeadersNotSigned``, as S3 does: such a header, an unsigned ``x-amz-copy-source`` added to a
presigned URL, say, would change what the request does), a header-signed request whose date is
more than 15 minutes from the server's clock (``RequestTimeTooSkewed``), an expired presigned URL
(``AccessDenied``, "Request has expired"); then, per bucket, a name no bucket can have
(``InvalidBucketName``), a missing bucket (``NoSuchBucket``) and a signer who is not its owner
credential (``AccessDenied``). Signature V2 signs every ``x-amz-*`` header by construction. An
anonymous request (no signature at all) gets the same per-bucket answers, a bucket that exists
being ``AccessDenied``; one that names no bucket (ListBuckets) is ``AccessDenied``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from altostratus.emulator.s3 import body, sigv2, sigv4
from altostratus.emulator.s3.directory import S3Bucket, S3Directory, S3Key
from altostratus.emulator.s3.errors import (
    S3Error,
    access_denied,
    invalid_access_key_id,
    no_such_bucket,
)
from altostratus.emulator.s3.operations import signing_paths
from altostratus.emulator.serving.server import PRESERVED_HEADER_NAMES

MAX_SKEW_SECONDS = 15 * 60
"""How far a header-signed request's date may be from the server's clock, either way (S3's)."""


@dataclass(frozen=True)
class Signer:
    """An authenticated request's credential, and what its payload check still needs."""

    key: S3Key
    v4: sigv4.Signature | None
    """The Signature V4 claims, for the payload and chunk checks; None for Signature V2."""
    signing_key: bytes
    """The V4 signing key the chunk signatures chain from; empty for Signature V2."""
    payload_hash: str
    body: bytes | None
    """The body, when it had to be read to check the signature; None while still unread."""

    def check_payload(self, data: bytes) -> None:
        """Check a body read after authentication against what the signature says of it
        (Signature V2 says nothing of the payload)."""
        if self.v4 is not None:
            body.check_payload(data, self.payload_hash, self.v4, self.signing_key)


ANONYMOUS = "Anonymous access is not allowed; sign requests with AWS Signature V4 or V2."


def read_claim(
    environ: Mapping[str, Any], query: Mapping[str, str]
) -> sigv4.Signature | sigv2.Signature | None:
    """The request's claimed signature, V4 or V2, header or presigned; None when it carries
    none (an anonymous request, refused by the caller as S3 refuses it)."""
    header = str(environ.get("HTTP_AUTHORIZATION", ""))
    if header:
        if sigv2.is_v2_header(header):
            return sigv2.from_header(environ, header)
        return sigv4.from_header(environ, header)
    if "X-Amz-Signature" in query or "X-Amz-Algorithm" in query:
        return sigv4.from_query(query)
    if sigv2.is_v2_query(query):
        return sigv2.from_query(query)
    return None


def authenticate(
    environ: dict[str, Any],
    query: Mapping[str, str],
    claim: sigv4.Signature | sigv2.Signature,
    directory: S3Directory,
    now: Callable[[], float],
) -> Signer:
    """Verify the request's signature (``claim``, from ``read_claim``) with its credential's
    secret; ``now`` judges expiry."""
    key = directory.s3_key(claim.access_key_id)
    if key is None:
        raise invalid_access_key_id()
    if isinstance(claim, sigv2.Signature):
        sigv2.verify(environ, query, claim, key.secret_access_key, signing_paths(environ))
        signer = Signer(key, None, b"", "", None)
    else:
        data: bytes | None = None
        payload_hash = claim.payload_hash
        if not payload_hash:
            data = body.read_body(environ)
            payload_hash = hashlib.sha256(data).hexdigest()
        signing_key = sigv4.verify(
            environ, claim, key.secret_access_key, signing_paths(environ), payload_hash
        )
        signer = Signer(key, claim, signing_key, payload_hash, data)
        _check_signed_headers(environ, claim)
    moment = now()
    signed_at = claim.signed_at()
    if signed_at is not None and abs(moment - signed_at) > MAX_SKEW_SECONDS:
        raise _skewed(signed_at, moment)
    expires_at = claim.expires_at()
    if expires_at is not None and moment > expires_at:
        raise _expired(expires_at, moment)
    return signer


def _check_signed_headers(environ: Mapping[str, Any], claim: sigv4.Signature) -> None:
    preserved = environ.get(PRESERVED_HEADER_NAMES) or {}
    signed = {name.lower() for name in claim.signed_headers}
    unsigned = sorted(
        name
        for name in (
            str(preserved.get(key) or key[5:].replace("_", "-")).lower()
            for key in environ
            if key.startswith("HTTP_X_AMZ_")
        )
        if name not in signed
    )
    if unsigned:
        raise S3Error(
            403,
            "AccessDenied",
            "There were headers present in the request which were not signed",
            extra={"HeadersNotSigned": ", ".join(unsigned)},
        )


def authorize(directory: S3Directory, name: str, key: S3Key | None) -> S3Bucket:
    """The bucket, when ``key`` is its owner credential. As S3 answers: a name no bucket has is
    ``NoSuchBucket`` (404) for any caller, signed or not; a bucket of another credential or
    account, and any bucket to an anonymous caller (``key`` None: every store is private), is
    ``AccessDenied`` (403), never its data."""
    bucket = directory.s3_bucket(name)
    if bucket is None:
        raise no_such_bucket(name)
    if key is None:
        raise access_denied(ANONYMOUS)
    if bucket.account_id != key.account_id or bucket.owner_access_key_id != key.access_key_id:
        raise access_denied()
    return bucket


def _stamp(moment: float) -> str:
    return datetime.fromtimestamp(max(moment, 0), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _expired(expires_at: float, now: float) -> S3Error:
    return S3Error(
        403,
        "AccessDenied",
        "Request has expired",
        extra={"Expires": _stamp(expires_at), "ServerTime": _stamp(now)},
    )


def _skewed(signed_at: float, now: float) -> S3Error:
    return S3Error(
        403,
        "RequestTimeTooSkewed",
        "The difference between the request time and the current time is too large.",
        extra={
            "RequestTime": _stamp(signed_at),
            "ServerTime": _stamp(now),
            "MaxAllowedSkewMilliseconds": str(int(MAX_SKEW_SECONDS * 1000)),
        },
    )
