from __future__ import annotations

from altostratus.client.models._base import ResponseModel


class ObjectStoreOwner(ResponseModel):
    name: str | None = None
    access_key_id: str | None = None


class ObjectStore(ResponseModel):
    """An object store; list answers may leave out some details."""

    id: str
    name: str
    max_size_gb: int | None = None
    owner_info: ObjectStoreOwner | None = None
    status: str | None = None
    """`creating`, then `ready` (or `failed`)."""
    objectstore_endpoint: str | None = None
    """`<S3 address>/<bucket name>`."""
