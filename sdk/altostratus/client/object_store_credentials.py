from __future__ import annotations

from altostratus.client._collection import RegionalCollection, fields
from altostratus.client.models import ObjectStoreCredential

PATH = "/v2/objectstore/credentials"


class ObjectStoreCredentialsAPI(RegionalCollection[ObjectStoreCredential]):
    _path = PATH
    _model = ObjectStoreCredential
    _paginated = True

    def create(
        self,
        *,
        name: str,
        access_key_id: str | None = None,
        secret_access_key_id: str | None = None,
        max_size_gb: int | None = None,
        region: str | None = None,
    ) -> ObjectStoreCredential:
        """Create a key pair; the service generates the parts left out."""
        body = fields(
            name=name,
            access_key_id=access_key_id,
            secret_access_key_id=secret_access_key_id,
            max_size_gb=max_size_gb,
        )
        return self._one(ObjectStoreCredential, "POST", PATH, region=region, body=body)

    def update(
        self,
        id: str,
        *,
        max_size_gb: int | None = None,
        access_key_id: str | None = None,
        secret_access_key_id: str | None = None,
        region: str | None = None,
    ) -> ObjectStoreCredential:
        body = fields(
            max_size_gb=max_size_gb,
            access_key_id=access_key_id,
            secret_access_key_id=secret_access_key_id,
        )
        path = self._item(id)
        return self._one(ObjectStoreCredential, "PATCH", path, region=region, body=body)
