"""S3 on its own port: moto's S3 behind a front that verifies AWS Signature V4 and V2.

The front authenticates every request against the credentials of the emulator's state, allows it
only when the signer owns the addressed store, enforces the store's size limit on uploads, and
answers S3-style XML errors. Requests that pass are handed to moto's S3 application unchanged.
"""

from __future__ import annotations

from altostratus.emulator.s3.directory import S3Bucket, S3Directory, S3Key
from altostratus.emulator.s3.service import S3Service

__all__ = ["S3Bucket", "S3Directory", "S3Key", "S3Service"]
