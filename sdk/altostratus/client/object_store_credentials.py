from __future__ import annotations

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.models import ObjectStoreCredential

PATH = "/v2/objectstore/credentials"


class ObjectStoreCredentialsAPI(Collection):
    def list(self, *, region: str | None = None) -> list[ObjectStoreCredential]:
        """Every credential of the region, across all pages."""
        return self._all_pages(ObjectStoreCredential, PATH, self._region(region))

    def get(self, id: str, *, region: str | None = None) -> ObjectStoreCredential:
        path = f"{PATH}/{segment(id)}"
        return self._one(ObjectStoreCredential, "GET", path, query=self._query(region))

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
        region = self._region(region)
        body = fields(
            name=name,
            region=region,
            access_key_id=access_key_id,
            secret_access_key_id=secret_access_key_id,
            max_size_gb=max_size_gb,
        )
        return self._one(ObjectStoreCredential, "POST", PATH, query={"region": region}, body=body)

    def update(
        self,
        id: str,
        *,
        max_size_gb: int | None = None,
        access_key_id: str | None = None,
        secret_access_key_id: str | None = None,
        region: str | None = None,
    ) -> ObjectStoreCredential:
        region = self._region(region)
        body = fields(
            region=region,
            max_size_gb=max_size_gb,
            access_key_id=access_key_id,
            secret_access_key_id=secret_access_key_id,
        )
        path = f"{PATH}/{segment(id)}"
        return self._one(ObjectStoreCredential, "PATCH", path, query={"region": region}, body=body)

    def delete(self, id: str, *, region: str | None = None) -> None:
        self._send("DELETE", f"{PATH}/{segment(id)}", query=self._query(region))
