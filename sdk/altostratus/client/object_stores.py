from __future__ import annotations

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.models import ObjectStore

PATH = "/v2/objectstores"


class ObjectStoresAPI(Collection):
    def list(self, *, region: str | None = None) -> list[ObjectStore]:
        """Every object store of the region, across all pages."""
        return self._all_pages(ObjectStore, PATH, self._region(region))

    def get(self, id: str, *, region: str | None = None) -> ObjectStore:
        return self._one(ObjectStore, "GET", f"{PATH}/{segment(id)}", query=self._query(region))

    def create(
        self,
        *,
        name: str,
        size: int | None = None,
        access_key_id: str | None = None,
        region: str | None = None,
    ) -> ObjectStore:
        """Create a store of `size` GB (service default 500); without `access_key_id` the
        service also creates the owner credential. Its status is `creating`, then `ready`."""
        region = self._region(region)
        body = fields(name=name, region=region, size=size, access_key_id=access_key_id)
        return self._one(ObjectStore, "POST", PATH, query={"region": region}, body=body)

    def update(
        self,
        id: str,
        *,
        max_size_gb: int | None = None,
        access_key_id: str | None = None,
        region: str | None = None,
    ) -> ObjectStore:
        region = self._region(region)
        path = f"{PATH}/{segment(id)}"
        body = fields(region=region, max_size_gb=max_size_gb, access_key_id=access_key_id)
        return self._one(ObjectStore, "PATCH", path, query={"region": region}, body=body)

    def delete(self, id: str, *, region: str | None = None) -> None:
        """Delete the store and everything in it, at once."""
        self._send("DELETE", f"{PATH}/{segment(id)}", query=self._query(region))
