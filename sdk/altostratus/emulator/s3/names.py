"""S3's rules for a bucket name, checked on every request that names one: a name no bucket can
have is answered 400 ``InvalidBucketName`` (as S3 answers it), not looked up."""

from __future__ import annotations

import ipaddress
import re

from altostratus.emulator.s3.errors import S3Error

_NAME = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
"""3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or
digit (an object store's bucket, ``<name>-<6 characters>``, is 8 to 63)."""


def check_bucket_name(name: str) -> None:
    if _NAME.fullmatch(name) is None or ".." in name or _is_address(name):
        raise S3Error(
            400,
            "InvalidBucketName",
            "The specified bucket is not valid.",
            extra={"BucketName": name},
        )


def _is_address(name: str) -> bool:
    try:
        ipaddress.IPv4Address(name)
    except ValueError:
        return False
    return True
