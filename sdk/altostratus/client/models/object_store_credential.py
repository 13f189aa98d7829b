from __future__ import annotations

from pydantic import Field

from altostratus.client.models._base import ResponseModel


class ObjectStoreCredential(ResponseModel):
    id: str
    name: str
    access_key_id: str
    secret_access_key_id: str | None = Field(default=None, repr=False)
    """The secret key (kept out of the repr)."""
    max_size_gb: int | None = None
    suspended: bool | None = None
    status: str | None = None
