"""The bytes each bucket holds, as a running count, and the size limit checked against it.

A bucket is counted whole once (when it is made or its objects are restored); after that each
write measures only what it touches, before and after moto applies it: the versions of one key
(a put, a copy, a delete, a completed upload's object), the parts of one upload (a part, an
abort, a completed upload), or, for the rare request that may touch many keys (DeleteObjects),
the whole bucket. The difference is added to the count, so the count is what moto stores,
whatever the request claimed, across overwrites, deletes, copies and multipart uploads.

A write holds the locks of what it touches from the first measure to the second, so two writes
to one key never interleave their measures; the locks are a fixed set of stripes, taken in
order, so writes to different keys run side by side and never deadlock. While a write is in
flight the bytes it may add are reserved against the limit, so concurrent uploads cannot pass it
together.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

from altostratus.emulator.s3 import store
from altostratus.emulator.s3.errors import quota_exceeded
from altostratus.emulator.s3.operations import Touched

STRIPES = 64


def _measure(touched: Touched) -> int:
    if touched.whole:
        return store.used_bytes(touched.bucket)
    bucket = touched.bucket
    return sum(store.key_bytes(bucket, key) for key in touched.keys) + sum(
        store.upload_bytes(bucket, upload) for upload in touched.uploads
    )


def _stripes(touched: Touched) -> list[int]:
    if touched.whole:
        return list(range(STRIPES))
    names = [f"k/{key}" for key in touched.keys] + [f"u/{upload}" for upload in touched.uploads]
    named = (f"{touched.bucket}/{name}".encode("utf-8", "surrogatepass") for name in names)
    return sorted({zlib.crc32(name) % STRIPES for name in named})


class Usage:
    """Running byte counts of the buckets, and the writes in flight against them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._used: dict[str, int] = {}
        self._reserved: dict[str, int] = {}
        self._stripes = [threading.Lock() for _ in range(STRIPES)]

    def count(self, bucket: str) -> None:
        """Count the bucket whole: when it is made, or its objects are put back."""
        total = store.used_bytes(bucket)
        with self._lock:
            self._used[bucket] = total

    def forget(self, bucket: str) -> None:
        with self._lock:
            self._used.pop(bucket, None)
            self._reserved.pop(bucket, None)

    def used(self, bucket: str) -> int:
        with self._lock:
            return self._used.get(bucket, 0)

    @contextmanager
    def writing(
        self, touched: Touched, limit: int, added: int, freed: Callable[[], int]
    ) -> Iterator[None]:
        """Run a write of ``touched``: refuse it (``QuotaExceeded``) when the ``added`` bytes,
        less the ``freed()`` ones (read while the write holds what it touches), would take the
        bucket past ``limit``; count what it changed."""
        with ExitStack() as held:
            for stripe in _stripes(touched):
                held.enter_context(self._stripes[stripe])
            before = _measure(touched)
            bucket = touched.bucket
            if added > 0:
                freeing = freed()
                with self._lock:
                    used = self._used.get(bucket, 0)
                    reserved = self._reserved.get(bucket, 0)
                    if used + reserved + added - freeing > limit:
                        raise quota_exceeded(bucket, limit)
                    self._reserved[bucket] = reserved + added
            try:
                yield
            finally:
                after = _measure(touched)
                with self._lock:
                    if bucket in self._used:
                        self._used[bucket] += after - before
                    left = self._reserved.get(bucket, 0) - max(added, 0)
                    if left > 0:
                        self._reserved[bucket] = left
                    else:
                        self._reserved.pop(bucket, None)
