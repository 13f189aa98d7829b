from __future__ import annotations

from pydantic import AliasChoices, Field

from altostratus.client.models._base import ResponseModel

SIZE = AliasChoices("max_size_gb", "max_size")
"""The size in gigabytes: the spec's name, then the one the official clients read."""


class ObjectStoreOwner(ResponseModel):
    name: str | None = None
    access_key_id: str | None = None
    credential_id: str | None = None


class ObjectStore(ResponseModel):
    id: str
    name: str | None = None
    max_size_gb: int | None = Field(default=None, validation_alias=SIZE)
    owner_info: ObjectStoreOwner | None = None
    status: str | None = None
    """`creating`, then `ready` (or `failed`)."""
    objectstore_endpoint: str | None = None
    """`<S3 address>/<bucket name>`."""

    @property
    def bucket_name(self) -> str | None:
        """The store's S3 bucket: the last part of ``objectstore_endpoint`` (as the
        ``ObjectStore`` resource outputs it)."""
        bucket = (self.objectstore_endpoint or "").rpartition("/")[2]
        return bucket or None

    @property
    def endpoint_url(self) -> str | None:
        """The S3 address the bucket is served at: ``objectstore_endpoint`` without the bucket."""
        base = (self.objectstore_endpoint or "").rpartition("/")[0]
        return base or None


class ObjectStoreStats(ResponseModel):
    size_kb_utilised: int | None = None
    max_size_kb: int | None = None
    num_objects: int | None = None
