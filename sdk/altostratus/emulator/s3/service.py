"""The S3 front: a WSGI application that verifies, authorizes and forwards to moto."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, NoReturn
from urllib.parse import parse_qsl

from altostratus.emulator.s3 import auth, body, store
from altostratus.emulator.s3.directory import S3Bucket, S3Directory, S3Key
from altostratus.emulator.s3.errors import S3Error, access_denied, new_request_id, no_such_upload
from altostratus.emulator.s3.forward import Answer, held, moto_environ
from altostratus.emulator.s3.listing import list_buckets_xml
from altostratus.emulator.s3.names import check_bucket_name
from altostratus.emulator.s3.operations import Kind, Operation, Touched, classify
from altostratus.emulator.s3.usage import Usage

StartResponse = Callable[..., Any]
logger = logging.getLogger("altostratus.emulator.s3")


class S3Service:
    """moto's S3 behind AWS Signature V4 and V2, store ownership and the stores' size limits.

    Every request must be signed (header or presigned URL, either signature version) by a
    credential the directory knows, and the signer must be the addressed bucket's owner
    credential; an anonymous request is refused (``AccessDenied``, or ``NoSuchBucket`` for a
    bucket that does not exist), and a name no bucket can have is ``InvalidBucketName``.
    Buckets are made and removed only through ``create_bucket``/``delete_bucket`` (the API's
    object stores): S3's own CreateBucket and DeleteBucket are refused, and so are HTML form
    uploads (POST Object), which would escape the size limit. ListBuckets answers the signer's
    buckets only. Presigned URLs expire by real wall time, the clock their signers stamp them
    with.

    A write is answered only after ``on_change`` (the state folder's object files) has kept what
    it changed; when that fails the answer is a 500, never a success that a restart would lose.
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
        self._moto_app: Any = None
        self._lock = threading.Lock()
        self._buckets: set[str] = set()
        self.usage = Usage()
        #: Told what a successful write changed, while it still holds it, before it is answered;
        #: and told a bucket's name after it is removed: the state folder's object files.
        self.on_change: Callable[[Touched], None] | None = None
        self.on_removed: Callable[[str], None] | None = None

    def _moto(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """moto's S3 application, made (and moto imported) when first needed."""
        if self._moto_app is None:
            with self._lock:
                if self._moto_app is None:
                    from moto.moto_server.werkzeug_app import create_backend_app

                    self._moto_app = create_backend_app("s3")
        answer: Iterable[bytes] = self._moto_app(environ, start_response)
        return answer

    def create_bucket(self, name: str, *, empty: bool = False) -> None:
        """Make the bucket in moto; ``empty``: without what an earlier emulator of this process
        left there under that name (a state folder's bucket holds what the folder holds)."""
        with self._lock:
            if empty:
                store.delete(name)
            store.create(name, self._region)
            self._buckets.add(name)
        self.usage.count(name)

    def count_bucket(self, name: str) -> None:
        """Count the bucket's bytes whole again, after its objects were put back."""
        self.usage.count(name)

    def contents(self, name: str) -> tuple[int, int]:
        """The bucket's bytes and its objects."""
        return self.usage.used(name), store.object_count(name)

    def delete_bucket(self, name: str) -> None:
        with self._lock:
            store.delete(name)
            self._buckets.discard(name)
        self.usage.forget(name)
        if self.on_removed is not None:
            self.on_removed(name)

    def reset(self) -> None:
        """Remove every bucket this service made, with all objects."""
        with self._lock:
            removed = sorted(self._buckets)
            for name in removed:
                store.delete(name)
            self._buckets.clear()
        for name in removed:
            self.usage.forget(name)
            if self.on_removed is not None:
                self.on_removed(name)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        request_id = new_request_id()
        try:
            return self._handle(environ, start_response)
        except S3Error as error:
            headers = [("Content-Type", "application/xml"), ("x-amz-request-id", request_id)]
            if not body.drain(environ):  # what is left of the body is not waited for
                headers.append(("Connection", "close"))
            document = error.to_xml(_resource(environ), request_id)
            headers.append(("Content-Length", str(len(document))))
            start_response(f"{error.status} {_REASONS.get(error.status, 'Error')}", headers)
            return [] if environ["REQUEST_METHOD"] == "HEAD" else [document]

    def _handle(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        query = dict(parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True))
        claim = auth.read_claim(environ, query)
        if claim is None:
            self._refuse_anonymous(classify(environ, query))
        signer = auth.authenticate(environ, query, claim, self._directory, self._wall_time)
        key = signer.key
        operation = classify(environ, query)
        if operation.bucket:
            check_bucket_name(operation.bucket)
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
        data = signer.body
        if data is None:
            data = body.read_body(environ)
            signer.check_payload(data)
        body.check_content_md5(environ, data)
        stored = body.stored_length(environ, data)
        forwarded = moto_environ(
            environ, operation, key.access_key_id, data, self._region, self._wall_time()
        )
        if operation.touched is None:
            self._check_upload(operation)
            return self._moto(forwarded, start_response)
        answer = self._write(bucket, operation, operation.touched, stored, forwarded)
        start_response(answer.status, answer.headers)
        return answer.body

    def _refuse_anonymous(self, operation: Operation) -> NoReturn:
        """Every store is private: an anonymous request is refused as S3 refuses it (see
        ``auth.authorize``), never forwarded."""
        if operation.bucket:
            check_bucket_name(operation.bucket)
            auth.authorize(self._directory, operation.bucket, None)
        raise access_denied(auth.ANONYMOUS)

    def _check_upload(self, operation: Operation) -> None:
        """An upload must be unfinished and of the key, but for a repeated complete of the
        upload that made the key."""
        upload_id, bucket, key = operation.upload_id, operation.bucket, operation.key
        if upload_id is None or store.has_upload(bucket, upload_id, key):
            return
        repeated = operation.kind is Kind.COMPLETE_UPLOAD
        if not (repeated and store.completed_upload(bucket, upload_id, key)):
            raise no_such_upload(upload_id)

    def _write(
        self,
        bucket: S3Bucket,
        operation: Operation,
        touched: Touched,
        stored: int,
        forwarded: dict[str, Any],
    ) -> Answer:
        """Forward a write holding what it touches: within the size limit, counted, and kept by
        ``on_change`` before it is answered."""
        added, freed = _size_change(operation, stored)
        with self.usage.writing(touched, bucket.max_size_bytes, added, freed):
            self._check_upload(operation)
            answer = held(self._moto, forwarded)
            if answer.ok and self.on_change is not None:
                try:
                    self.on_change(touched)
                except Exception:
                    logger.exception("the emulator could not keep the objects it was sent")
                    raise S3Error(
                        500,
                        "InternalError",
                        "The emulator could not save the change to its state folder; see its log.",
                    ) from None
        return answer

    def _list_buckets(
        self, key: S3Key, query: dict[str, str], start_response: StartResponse
    ) -> Iterable[bytes]:
        names = [bucket.name for bucket in self._directory.s3_buckets_of(key.access_key_id)]
        listing = list_buckets_xml(key.account_id, names, query.get("prefix", ""))
        start_response(
            "200 OK",
            [("Content-Type", "application/xml"), ("Content-Length", str(len(listing)))],
        )
        return [listing]


_REASONS = {
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    500: "Internal Server Error",
    501: "Not Implemented",
}


def _resource(environ: dict[str, Any]) -> str:
    return str(environ.get("PATH_INFO", "/")).encode("latin-1").decode("utf-8", "replace")


def _size_change(operation: Operation, stored: int) -> tuple[int, Callable[[], int]]:
    """Bytes a write may add to its bucket (the body it stores, or the source it copies), and
    what reads the bytes it frees by replacing what was there."""
    nothing: Callable[[], int] = lambda: 0  # noqa: E731
    if operation.kind is Kind.UPLOAD_PART:
        upload_id, number = operation.upload_id, operation.part_number
        assert upload_id is not None and number is not None
        freed = lambda: store.part_size(operation.bucket, upload_id, number)  # noqa: E731
    elif operation.kind is Kind.PUT_OBJECT:
        freed = lambda: store.replaced_bytes(operation.bucket, operation.key)  # noqa: E731
    else:
        return 0, nothing
    source = operation.copy_source
    if source is None:
        return stored, freed
    size = source.length
    if size is None:
        size = store.object_size(source.bucket, source.key, source.version_id) or 0
    return size, freed
