"""The S3 front: a WSGI application that verifies, authorizes and forwards to moto."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from altostratus.emulator.s3.directory import S3Directory


class S3Service:
    def __init__(self, directory: S3Directory, region_name: str = "us-east-1") -> None:
        self._directory = directory
        self._region = region_name

    def create_bucket(self, name: str) -> None:
        raise NotImplementedError

    def delete_bucket(self, name: str) -> None:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        raise NotImplementedError
