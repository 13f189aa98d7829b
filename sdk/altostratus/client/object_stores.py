from __future__ import annotations

from altostratus.client._collection import RegionalCollection, fields
from altostratus.client.models import ObjectStore, ObjectStoreStats
from altostratus.client.store_objects import count_objects

PATH = "/v2/objectstores"


class ObjectStoresAPI(RegionalCollection[ObjectStore]):
    """Object stores; ``delete`` removes a store and everything in it, at once."""

    _path = PATH
    _model = ObjectStore
    _paginated = True

    def create(
        self,
        *,
        name: str,
        max_size_gb: int | None = None,
        access_key_id: str | None = None,
        region: str | None = None,
        size: int | None = None,
    ) -> ObjectStore:
        """Create a store of `max_size_gb` GB (service default 500); without `access_key_id`
        the service also creates the owner credential. Its status is `creating`, then `ready`.
        `size` is the earlier name of `max_size_gb`, still taken (the request calls it so)."""
        if size is not None and max_size_gb is not None and size != max_size_gb:
            raise ValueError("size and max_size_gb name the same value: give one")
        size = max_size_gb if max_size_gb is not None else size
        body = fields(name=name, size=size, access_key_id=access_key_id)
        return self._one(ObjectStore, "POST", PATH, region=region, body=body)

    def stats(self, id: str, *, region: str | None = None) -> ObjectStoreStats:
        """The store's usage: kilobytes used and permitted, objects held."""
        path = f"{self._item(id)}/stats"
        return self._one(ObjectStoreStats, "GET", path, region=region)

    def update(
        self,
        id: str,
        *,
        max_size_gb: int | None = None,
        access_key_id: str | None = None,
        region: str | None = None,
    ) -> ObjectStore:
        body = fields(max_size_gb=max_size_gb, access_key_id=access_key_id)
        return self._one(ObjectStore, "PATCH", self._item(id), region=region, body=body)

    def count_objects(
        self,
        store: ObjectStore,
        *,
        access_key_id: str,
        secret_access_key: str,
        region: str,
        most: int | None = None,
    ) -> int:
        """The number of objects in `store`, listed through its S3 endpoint with a credential
        of the store (the API itself has no count); with `most`, the listing stops once that
        many are seen and answers `most` (one request for up to 1000)."""
        return count_objects(
            self._http,
            str(store.objectstore_endpoint or ""),
            access_key_id,
            secret_access_key,
            region,
            most,
        )
