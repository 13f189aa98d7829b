"""The S3 front: a WSGI application that verifies, authorizes and forwards to moto."""

from __future__ import annotations

import io
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl

from moto.moto_server.werkzeug_app import create_backend_app

from altostratus.emulator.s3 import auth, body, copy_source, sigv4, store
from altostratus.emulator.s3.directory import S3Bucket, S3Directory, S3Key
from altostratus.emulator.s3.errors import (
    S3Error,
    access_denied,
    new_request_id,
    no_such_upload,
    quota_exceeded,
)
from altostratus.emulator.s3.listing import list_buckets_xml
from altostratus.emulator.s3.operations import Kind, Operation, classify, path_bytes, raw_path

StartResponse = Callable[..., Any]
_PATH_STYLE_HOST = re.compile(r"(localhost|[^.]+|[\d.]+|\[[0-9a-fA-F:.]+\])(:\d+)?")


class S3Service:
    """moto's S3 behind AWS Signature V4 and V2, store ownership and the stores' size limits.

    Every request must be signed (header or presigned URL, either signature version) by a
    credential the directory knows, and the signer must be the addressed bucket's owner
    credential. Buckets are made and removed only through ``create_bucket``/``delete_bucket``
    (the API's object stores): S3's own CreateBucket and DeleteBucket are refused, and so are
    HTML form uploads (POST Object), which would escape the size limit. ListBuckets answers the
    signer's buckets only. Presigned URLs expire by real wall time, the clock their signers stamp
    them with.
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
            body.drain(environ)
            document = error.to_xml(_resource(environ), request_id)
            start_response(
                f"{error.status} {_REASONS.get(error.status, 'Error')}",
                [
                    ("Content-Type", "application/xml"),
                    ("Content-Length", str(len(document))),
                    ("x-amz-request-id", request_id),
                ],
            )
            return [] if environ["REQUEST_METHOD"] == "HEAD" else [document]

    def _handle(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        query = dict(parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True))
        signer = auth.authenticate(environ, query, self._directory, self._wall_time)
        key = signer.key
        operation = classify(environ, query)
        if operation.kind is Kind.LIST_BUCKETS:
            return self._list_buckets(key, query, start_response)
        if operation.kind in (Kind.CREATE_BUCKET, Kind.DELETE_BUCKET):
            raise access_denied(
                f"{operation.kind.value} is not available through S3: "
                "buckets are made and removed as object stores through the API."
            )
        bucket = auth.authorize(self._directory, operation.bucket, key)
        if operation.kind is Kind.POST_OBJECT:
            raise S3Error(
                501,
                "NotImplemented",
                "POST uploads (HTML forms) are not supported here: "
                "upload with PUT, or with a presigned PUT URL.",
            )
        if operation.copy_source is not None:
            auth.authorize(self._directory, operation.copy_source.bucket, key)
        upload_id = operation.upload_id
        if upload_id is not None and not store.has_upload(bucket.name, upload_id, operation.key):
            raise no_such_upload(upload_id)
        data = signer.body
        if data is None:
            data = body.read_body(environ)
            signer.check_payload(data)
        body.check_content_md5(environ, data)
        with self._reservation(bucket, *_size_change(operation, environ, data)):
            answer = self._forward(environ, operation, key.access_key_id, data, start_response)
        if self.on_change is not None and environ["REQUEST_METHOD"] in ("PUT", "POST", "DELETE"):
            self.on_change(bucket.name)
        return answer

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
        operation: Operation,
        access_key_id: str,
        data: bytes,
        start_response: StartResponse,
    ) -> Iterable[bytes]:
        """Hand a verified request to moto, which checks no signatures of its own.

        moto reads the key from ``RAW_URI``, decoding it once, so it is handed the path as sent
        (and ``PATH_INFO`` decoded once to match), and the copy source in the spelling that names
        exactly the source authorized. moto treats a request without credentials as anonymous and
        applies ACLs, so a header-signed request keeps an Authorization header, rewritten to name
        this service's region. moto would parse a form-typed PUT body as a form and store nothing,
        so such a body is passed on as ``application/octet-stream``.
        """
        forwarded = dict(environ)
        path = raw_path(environ)
        query = str(environ.get("QUERY_STRING", ""))
        forwarded["RAW_URI"] = path + (f"?{query}" if query else "")
        forwarded["PATH_INFO"] = path_bytes(environ).decode("latin-1")
        forwarded.pop("REQUEST_URI", None)
        forwarded.pop(copy_source.HEADER, None)
        if operation.copy_source is not None:
            forwarded[copy_source.HEADER] = operation.copy_source.canonical()
        form_type = str(environ.get("CONTENT_TYPE", "")).split(";")[0].strip().lower()
        if environ["REQUEST_METHOD"] == "PUT" and form_type in _FORM_TYPES:
            forwarded["CONTENT_TYPE"] = "application/octet-stream"
        if "HTTP_AUTHORIZATION" in forwarded:
            date = time.strftime("%Y%m%d", time.gmtime(self._wall_time()))
            forwarded["HTTP_AUTHORIZATION"] = (
                f"{sigv4.ALGORITHM} Credential={access_key_id}/{date}/"
                f"{self._region}/s3/aws4_request, SignedHeaders=host, Signature=verified"
            )
        forwarded.pop("HTTP_TRANSFER_ENCODING", None)
        # A terminated input is read as is, in one piece: no second copy of a large body.
        forwarded["wsgi.input_terminated"] = True
        forwarded["wsgi.input"] = io.BytesIO(data)
        forwarded["CONTENT_LENGTH"] = str(len(data))
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
_REASONS = {400: "Bad Request", 403: "Forbidden", 404: "Not Found", 501: "Not Implemented"}


def _resource(environ: dict[str, Any]) -> str:
    return str(environ.get("PATH_INFO", "/")).encode("latin-1").decode("utf-8", "replace")


def _size_change(operation: Operation, environ: dict[str, Any], data: bytes) -> tuple[int, int]:
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
    added = int(decoded) if decoded and str(decoded).isdigit() else len(data)
    return added, freed
