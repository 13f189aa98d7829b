"""A served S3 front over a small in-memory directory, for the S3 tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import boto3
from botocore.config import Config

from altostratus.emulator.s3 import S3Bucket, S3Key, S3Service
from altostratus.emulator.serving.server import BackgroundServer

OWNER = S3Key("AKIAOWNER00000000001", "owner-secret-" + "o" * 27, "account-a")
SIBLING = S3Key("AKIASIBLING000000002", "sibling-secret-" + "s" * 25, "account-a")
STRANGER = S3Key("AKIASTRANGER00000003", "stranger-secret-" + "x" * 24, "account-b")
BUCKET = "photos-abc123"
SMALL_BUCKET = "tiny-def456"
FOREIGN_BUCKET = "theirs-ghi789"
DIRECT_BUCKET = "moto-direct"
"""The bucket of moto served directly, without the front (the ``direct`` fixture)."""
SMALL_LIMIT = 1000


class WallClock:
    """The wall clock, moved by ``offset`` seconds: what presigned URLs expire by."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@dataclass
class FakeDirectory:
    keys: dict[str, S3Key] = field(default_factory=dict)
    buckets: dict[str, S3Bucket] = field(default_factory=dict)

    def s3_key(self, access_key_id: str) -> S3Key | None:
        return self.keys.get(access_key_id)

    def s3_bucket(self, name: str) -> S3Bucket | None:
        return self.buckets.get(name)

    def s3_buckets_of(self, access_key_id: str) -> list[S3Bucket]:
        return [b for b in self.buckets.values() if b.owner_access_key_id == access_key_id]


@dataclass
class S3Server:
    url: str
    directory: FakeDirectory
    service: S3Service

    def client(self, key: S3Key, secret: str | None = None, signature_version: str = "s3v4") -> Any:
        """A path-style client signing with ``signature_version`` (``s3`` is Signature V2)."""
        return boto3.client(
            "s3",
            endpoint_url=self.url,
            region_name="us-east-1",
            aws_access_key_id=key.access_key_id,
            aws_secret_access_key=secret or key.secret_access_key,
            config=Config(
                s3={"addressing_style": "path"},
                signature_version=signature_version,
                retries={"max_attempts": 1},
            ),
        )

    def default_client(self, key: S3Key) -> Any:
        """A client with boto3's default configuration, as a user makes one."""
        return boto3.client(
            "s3",
            endpoint_url=self.url,
            region_name="us-east-1",
            aws_access_key_id=key.access_key_id,
            aws_secret_access_key=key.secret_access_key,
        )

    def populate(self) -> None:
        self.service.reset()
        self.directory.keys = {k.access_key_id: k for k in (OWNER, SIBLING, STRANGER)}
        self.directory.buckets = {}
        for name, owner, limit in (
            (BUCKET, OWNER, 1024**3),
            (SMALL_BUCKET, OWNER, SMALL_LIMIT),
            (FOREIGN_BUCKET, STRANGER, 10 * 1024**2),
        ):
            bucket = S3Bucket(name, owner.account_id, owner.access_key_id, limit)
            self.directory.buckets[name] = bucket
            self.service.create_bucket(name)


def serve_s3(wall_time: Callable[[], float] = time.time) -> Iterator[S3Server]:
    """Serve a fresh front on a free port, with the emulator's own server; the test modules wrap
    this in a fixture."""
    directory = FakeDirectory()
    service = S3Service(directory, wall_time=wall_time)
    server = BackgroundServer("127.0.0.1", 0, service, "S3")
    server.start()
    try:
        yield S3Server(server.url("127.0.0.1"), directory, service)
    finally:
        server.stop()
        service.reset()
