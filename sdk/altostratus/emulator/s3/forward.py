"""A verified request as moto's S3 application is handed it, and moto's answer held back.

moto reads the key from ``RAW_URI``, decoding it once, so it is handed the path as sent (and
``PATH_INFO`` decoded once to match), and the copy source in the spelling that names exactly the
source the front authorized. moto checks no signatures of its own but treats a request without
credentials as anonymous and applies ACLs, so a header-signed request keeps an Authorization
header, rewritten to name the front's region. moto would parse a form-typed PUT body as a form and
store nothing, so such a body is passed on as ``application/octet-stream``.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from altostratus.emulator.s3 import copy_source, sigv4, store
from altostratus.emulator.s3.operations import Operation, path_bytes, raw_path

_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
_PATH_STYLE_HOST = re.compile(r"(localhost|[^.]+|[\d.]+|\[[0-9a-fA-F:.]+\])(:\d+)?")


def moto_environ(
    environ: dict[str, Any],
    operation: Operation,
    access_key_id: str,
    data: bytes,
    region: str,
    now: float,
) -> dict[str, Any]:
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
        date = time.strftime("%Y%m%d", time.gmtime(now))
        forwarded["HTTP_AUTHORIZATION"] = (
            f"{sigv4.ALGORITHM} Credential={access_key_id}/{date}/"
            f"{region}/s3/aws4_request, SignedHeaders=host, Signature=verified"
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
    return forwarded


@dataclass
class Answer:
    """moto's answer, not yet started: its status, headers and body."""

    status: str
    headers: list[tuple[str, str]]
    body: Iterable[bytes]

    @property
    def ok(self) -> bool:
        return self.status[:1] == "2"


def held(app: Callable[..., Iterable[bytes]], environ: dict[str, Any]) -> Answer:
    """Run ``app`` without starting the answer, so that what follows may still replace it."""
    started: list[tuple[str, list[tuple[str, str]]]] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        started[:] = [(status, headers)]
        return _no_write

    answer = app(environ, start_response)
    if not started:  # a WSGI application starts its answer before returning its body
        raise RuntimeError("moto returned no answer")
    status, headers = started[0]
    return Answer(status, headers, answer)


def _no_write(data: bytes) -> None:
    raise RuntimeError("moto's answer is written through its body, not write()")
