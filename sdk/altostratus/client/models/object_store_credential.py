from __future__ import annotations

from pydantic import Field

from altostratus.client.models._base import ResponseModel
from altostratus.client.models.object_store import SIZE


class ObjectStoreCredential(ResponseModel):
    id: str
    name: str | None = None
    access_key_id: str | None = None
    secret_access_key_id: str | None = Field(default=None, repr=False)
    """The secret key (kept out of the repr)."""
    max_size_gb: int | None = Field(default=None, validation_alias=SIZE)
    suspended: bool | None = None
    status: str | None = None

    @property
    def secret_access_key(self) -> str | None:
        """The secret key under the name the resources' outputs and boto3 give it."""
        return self.secret_access_key_id
