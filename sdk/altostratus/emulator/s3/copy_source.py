"""``x-amz-copy-source`` read once, as S3 reads it, for CopyObject and UploadPartCopy alike.

The header names ``[/]<bucket>/<key>[?versionId=<id>]``, URL-encoded: everything before the
first ``?`` is percent-decoded once as UTF-8 (so ``%`` ``?`` ``#`` ``+`` in a key arrive as the
bytes the key holds), one leading slash is optional, the bucket is everything up to the next
slash and the key everything after it; the only query parameter is ``versionId``. Anything else
is refused (400 ``InvalidArgument``) rather than guessed at. The front authorizes the source read
here and hands moto ``canonical()``, a spelling moto's own parser reads as exactly that source,
so what is authorized and what is copied can never differ.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote_to_bytes

from altostratus.emulator.s3.errors import S3Error

HEADER = "HTTP_X_AMZ_COPY_SOURCE"
RANGE_HEADER = "HTTP_X_AMZ_COPY_SOURCE_RANGE"


@dataclass(frozen=True)
class CopySource:
    bucket: str
    key: str
    version_id: str | None
    length: int | None
    """Bytes named by ``x-amz-copy-source-range``; None for the whole object."""

    def canonical(self) -> str:
        """The header as moto is handed it: every byte of bucket, key and version encoded."""
        text = f"/{quote(self.bucket, safe='')}/{quote(self.key, safe='')}"
        if self.version_id is not None:
            text += f"?versionId={quote(self.version_id, safe='')}"
        return text


def _invalid(message: str) -> S3Error:
    return S3Error(400, "InvalidArgument", message)


def _decoded(text: str, what: str) -> str:
    """Percent-decoded as UTF-8; ``text`` is a WSGI header value, its bytes read as latin-1."""
    try:
        return unquote_to_bytes(text.encode("latin-1")).decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        raise _invalid(f"The copy source {what} is not URL-encoded UTF-8.") from None


def _length(environ: Mapping[str, Any]) -> int | None:
    first, sep, last = (
        str(environ.get(RANGE_HEADER, "")).strip().removeprefix("bytes=").partition("-")
    )
    if sep and first.isdigit() and last.isdigit() and int(first) <= int(last):
        return int(last) - int(first) + 1
    return None


def read(environ: Mapping[str, Any]) -> CopySource | None:
    """The request's copy source; None when it names none."""
    if HEADER not in environ:
        return None
    value = str(environ[HEADER]).strip()
    path, _, query = value.partition("?")
    bucket, slash, key = _decoded(path, "path").removeprefix("/").partition("/")
    if not bucket or not slash or not key:
        raise _invalid(
            "Copy Source must mention the source bucket and key: sourcebucket/sourcekey."
        )
    version_id = None
    if query:
        name, equals, version = query.partition("=")
        if name != "versionId" or not equals or not version or "&" in version:
            raise _invalid("The copy source may name a versionId and nothing else.")
        version_id = _decoded(version, "version")
    return CopySource(bucket, key, version_id, _length(environ))
