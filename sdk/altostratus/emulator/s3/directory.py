"""What the S3 front needs to know about credentials and stores, and who answers it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class S3Key:
    """A credential, as the S3 front needs it."""

    access_key_id: str
    secret_access_key: str
    account_id: str


@dataclass(frozen=True)
class S3Bucket:
    """An object store's bucket."""

    name: str
    """``<store name>-<suffix>``."""
    account_id: str
    owner_access_key_id: str
    max_size_bytes: int


class S3Directory(Protocol):
    """The emulator's state as the S3 front reads it; implementations must be thread-safe."""

    def s3_key(self, access_key_id: str) -> S3Key | None: ...

    def s3_bucket(self, name: str) -> S3Bucket | None: ...

    def s3_buckets_of(self, access_key_id: str) -> list[S3Bucket]: ...
