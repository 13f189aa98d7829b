"""The S3 front: a WSGI application that verifies, authorizes and forwards to moto."""

from __future__ import annotations

import hashlib
import hmac
import io
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl

from moto.moto_server.werkzeug_app import create_backend_app

from altostratus.emulator.s3 import chunked, sigv4, store
from altostratus.emulator.s3.directory import S3Bucket, S3Directory, S3Key
from altostratus.emulator.s3.errors import (
    S3Error,
    access_denied,
    invalid_access_key_id,
    new_request_id,
    no_such_bucket,
    quota_exceeded,
)
from altostratus.emulator.s3.listing import list_buckets_xml
from altostratus.emulator.s3.operations import Kind, Operation, classify, signing_paths

StartResponse = Callable[..., Any]
_CHUNK = 1 << 20
_DRAIN_LIMIT = 1 << 30
_SINGLE_READ_LIMIT = 256 << 20
_HEX_SHA256 = re.compile(r"[0-9a-f]{64}")
_PATH_STYLE_HOST = re.compile(r"(localhost|[^.]+|[\d.]+|\[[0-9a-fA-F:.]+\])(:\d+)?")


class S3Service:
    """moto's S3 behind AWS Signature V4, store ownership and the stores' size limits.

    Every request must be signed (header or presigned URL) by a credential the directory knows,
    and the signer must be the addressed bucket's owner credential. Buckets are made and removed
    only through ``create_bucket``/``delete_bucket`` (the API's object stores): S3's own
    CreateBucket and DeleteBucket are refused. ListBuckets answers the signer's buckets only.
    Presigned URLs expire by real wall time, the clock their signers stamp them with.
    """

    def __init__(
        self,
        directory: S3Directory,
        region_name: str = "us-east-1",
        *,
        wall_time: Callable[[], float] = time.time,
    ) -> None:
        self._directory = directory
        self._region = region_name
        self._wall_time = wall_time
        self._moto = create_backend_app("s3")
        self._lock = threading.Lock()
        self._buckets: set[str] = set()
        self._reserved: dict[str, int] = {}
        #: Told the bucket's name after each request that may change its objects, and after a
        #: bucket is removed: the state folder's object files.
        self.on_change: Callable[[str], None] | None = None
        self.on_removed: Callable[[str], None] | None = None

    def create_bucket(self, name: str) -> None:
        with self._lock:
            store.create(name, self._region)
            self._buckets.add(name)

    def delete_bucket(self, name: str) -> None:
        with self._lock:
            store.delete(name)
            self._buckets.discard(name)
        if self.on_removed is not None:
            self.on_removed(name)

    def reset(self) -> None:
        """Remove every bucket this service made, with all objects."""
        with self._lock:
            removed = sorted(self._buckets)
            for name in removed:
                store.delete(name)
            self._buckets.clear()
        if self.on_removed is not None:
            for name in removed:
                self.on_removed(name)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        request_id = new_request_id()
        try:
            return self._handle(environ, start_response)
        except S3Error as error:
            _drain(environ)
            body = error.to_xml(_resource(environ), request_id)
            start_response(
                f"{error.status} {_REASONS.get(error.status, 'Error')}",
                [
                    ("Content-Type", "application/xml"),
                    ("Content-Length", str(len(body))),
                    ("x-amz-request-id", request_id),
                ],
            )
            return [] if environ["REQUEST_METHOD"] == "HEAD" else [body]

    def _handle(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        query = dict(parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True))
        signature = sigv4.read_signature(environ, query)
        key = self._directory.s3_key(signature.access_key_id)
        if key is None:
            raise invalid_access_key_id()
        body: bytes | None = None
        payload_hash = signature.payload_hash
        if not payload_hash:
            body = _read_body(environ)
            payload_hash = hashlib.sha256(body).hexdigest()
        signing_key = sigv4.verify(
            environ, signature, key.secret_access_key, signing_paths(environ), payload_hash
        )
        expires_at = signature.expires_at()
        if expires_at is not None and self._wall_time() > expires_at:
            raise access_denied("Request has expired")
        operation = classify(environ, query)
        if operation.kind is Kind.LIST_BUCKETS:
            return self._list_buckets(key, query, start_response)
        if operation.kind in (Kind.CREATE_BUCKET, Kind.DELETE_BUCKET):
            raise access_denied(
                f"{operation.kind.value} is not available through S3: "
                "buckets are made and removed as object stores through the API."
            )
        bucket = self._authorize(operation.bucket, key)
        if operation.copy_source is not None:
            self._authorize(operation.copy_source.bucket, key)
        if body is None:
            body = _read_body(environ)
            _check_payload(body, payload_hash, signature, signing_key)
        with self._reservation(bucket, *_size_change(operation, environ, body)):
            answer = self._forward(environ, signature, body, start_response)
        if self.on_change is not None and environ["REQUEST_METHOD"] in ("PUT", "POST", "DELETE"):
            self.on_change(bucket.name)
        return answer

    def _authorize(self, name: str, key: S3Key) -> S3Bucket:
        bucket = self._directory.s3_bucket(name)
        if bucket is None:
            raise no_such_bucket(name)
        if bucket.account_id != key.account_id or bucket.owner_access_key_id != key.access_key_id:
            raise access_denied()
        return bucket

    @contextmanager
    def _reservation(self, bucket: S3Bucket, added: int, freed: int) -> Iterator[None]:
        """Hold ``added`` bytes against the bucket while an upload is in flight."""
        if added <= 0 and freed <= 0:
            yield
            return
        with self._lock:
            reserved = self._reserved.get(bucket.name, 0)
            if store.used_bytes(bucket.name) + reserved + added - freed > bucket.max_size_bytes:
                raise quota_exceeded(bucket.name, bucket.max_size_bytes)
            self._reserved[bucket.name] = reserved + added
        try:
            yield
        finally:
            with self._lock:
                left = self._reserved.get(bucket.name, 0) - added
                if left > 0:
                    self._reserved[bucket.name] = left
                else:
                    self._reserved.pop(bucket.name, None)

    def _forward(
        self,
        environ: dict[str, Any],
        signature: sigv4.Signature,
        body: bytes,
        start_response: StartResponse,
    ) -> Iterable[bytes]:
        """Hand a verified request to moto, which checks no signatures of its own.

        moto treats a request without credentials as anonymous and applies ACLs, so a header-signed
        request keeps an Authorization header, rewritten to name this service's region. moto
        would parse a form-typed PUT body as a form and store nothing, so such a body is passed
        on as ``application/octet-stream``.
        """
        forwarded = dict(environ)
        form_type = str(environ.get("CONTENT_TYPE", "")).split(";")[0].strip().lower()
        if environ["REQUEST_METHOD"] == "PUT" and form_type in _FORM_TYPES:
            forwarded["CONTENT_TYPE"] = "application/octet-stream"
        if "HTTP_AUTHORIZATION" in forwarded:
            forwarded["HTTP_AUTHORIZATION"] = (
                f"{sigv4.ALGORITHM} Credential={signature.access_key_id}/{signature.scope_date}/"
                f"{self._region}/s3/aws4_request, SignedHeaders=host, Signature=verified"
            )
        forwarded.pop("HTTP_TRANSFER_ENCODING", None)
        # A terminated input is read as is, in one piece: no second copy of a large body.
        forwarded["wsgi.input_terminated"] = True
        forwarded["wsgi.input"] = io.BytesIO(body)
        forwarded["CONTENT_LENGTH"] = str(len(body))
        forwarded["HTTP_X_MOTO_ACCOUNT_ID"] = store.moto_account_id()
        host = str(environ.get("HTTP_HOST", ""))
        if host and not _PATH_STYLE_HOST.fullmatch(host):
            _, colon, port = host.rpartition(":")
            forwarded["HTTP_HOST"] = "localhost" + (colon + port if port.isdigit() else "")
        return self._moto(forwarded, start_response)

    def _list_buckets(
        self, key: S3Key, query: dict[str, str], start_response: StartResponse
    ) -> Iterable[bytes]:
        names = [bucket.name for bucket in self._directory.s3_buckets_of(key.access_key_id)]
        body = list_buckets_xml(key.account_id, names, query.get("prefix", ""))
        start_response(
            "200 OK",
            [("Content-Type", "application/xml"), ("Content-Length", str(len(body)))],
        )
        return [body]


_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
_REASONS = {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}


def _resource(environ: dict[str, Any]) -> str:
    return str(environ.get("PATH_INFO", "/")).encode("latin-1").decode("utf-8", "replace")


def _content_length(environ: dict[str, Any]) -> int | None:
    try:
        return int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise S3Error(400, "InvalidArgument", "Content-Length is not a number.") from None


def _read_body(environ: dict[str, Any]) -> bytes:
    """The whole request body, read once; marks the input as consumed. A body that cannot be
    read (malformed chunked encoding, a dropped connection) is a 400."""
    try:
        return _read_all(environ)
    except S3Error:
        raise
    except Exception:  # the peer's bytes
        environ["altostratus.body_read"] = True
        raise S3Error(
            400, "IncompleteBody", "The request body could not be read (malformed chunks?)."
        ) from None


def _read_all(environ: dict[str, Any]) -> bytes:
    stream = environ["wsgi.input"]
    if environ.get("wsgi.input_terminated"):
        chunks = list(iter(lambda: stream.read(_CHUNK), b""))
    else:
        remaining = _content_length(environ) or 0
        chunks = []
        if 0 < remaining <= _SINGLE_READ_LIMIT:
            chunks.append(stream.read(remaining))
            remaining -= len(chunks[0])
        while remaining > 0:
            chunk = stream.read(min(remaining, _CHUNK))
            if not chunk:
                raise S3Error(400, "IncompleteBody", "The request body ended early.")
            chunks.append(chunk)
            remaining -= len(chunk)
    environ["altostratus.body_read"] = True
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _drain(environ: dict[str, Any]) -> None:
    """Read an unread body so the connection stays usable for the next request."""
    if environ.get("altostratus.body_read") or environ.get("wsgi.input_terminated"):
        return
    try:
        remaining = _content_length(environ) or 0
    except S3Error:
        return
    if remaining > _DRAIN_LIMIT:
        return
    stream = environ["wsgi.input"]
    while remaining > 0:
        chunk = stream.read(min(remaining, _CHUNK))
        if not chunk:
            return
        remaining -= len(chunk)
    environ["altostratus.body_read"] = True


def _check_payload(
    body: bytes, payload_hash: str, signature: sigv4.Signature, signing_key: bytes
) -> None:
    if payload_hash in (sigv4.UNSIGNED_PAYLOAD, chunked.STREAMING_UNSIGNED_TRAILER):
        return
    if payload_hash in (chunked.STREAMING_SIGNED, chunked.STREAMING_SIGNED_TRAILER):
        chunked.verify_chunks(body, signature, signing_key)
        return
    if not _HEX_SHA256.fullmatch(payload_hash):
        raise S3Error(400, "InvalidArgument", "x-amz-content-sha256 is not a valid value.")
    if not hmac.compare_digest(hashlib.sha256(body).hexdigest(), payload_hash):
        raise S3Error(
            400,
            "XAmzContentSHA256Mismatch",
            "The provided 'x-amz-content-sha256' header does not match what was computed.",
        )


def _size_change(operation: Operation, environ: dict[str, Any], body: bytes) -> tuple[int, int]:
    """Bytes an upload adds to its bucket and bytes it frees by replacing what was there."""
    if operation.kind is Kind.COMPLETE_UPLOAD:
        return 0, store.replaced_bytes(operation.bucket, operation.key)
    if operation.kind is Kind.UPLOAD_PART:
        assert operation.upload_id is not None and operation.part_number is not None
        freed = store.part_size(operation.bucket, operation.upload_id, operation.part_number)
    elif operation.kind is Kind.PUT_OBJECT:
        freed = store.replaced_bytes(operation.bucket, operation.key)
    else:
        return 0, 0
    source = operation.copy_source
    if source is not None:
        size = source.length
        if size is None:
            size = store.object_size(source.bucket, source.key, source.version_id) or 0
        return size, freed
    decoded = environ.get("HTTP_X_AMZ_DECODED_CONTENT_LENGTH")
    added = int(decoded) if decoded and str(decoded).isdigit() else len(body)
    return added, freed
