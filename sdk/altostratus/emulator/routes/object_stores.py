"""/v2/objectstores."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import ObjectStoreCreate, ObjectStoreUpdate
from altostratus.emulator.reading.params import page_params
from altostratus.emulator.routes.call import SUCCESS, Call, RouteTable
from altostratus.emulator.state.base import Encoded
from altostratus.emulator.state.object_stores import ObjectStore

ROUTES = RouteTable()


def _store(call: Call, store_id: str) -> ObjectStore:
    return call.state.object_stores.get(call.account_id, call.region, store_id)


@ROUTES.add("GET", "/objectstores", "List object stores", "ObjectStorePage", paged=True)
def list_stores(call: Call) -> Encoded:
    page, per_page = page_params(call.query)
    stores = call.state.object_stores
    return stores.page(call.account_id, call.region, page, per_page)


@ROUTES.add("GET", "/objectstores/{id}", "Retrieve an object store", "ObjectStore")
def get_store(call: Call, store_id: str) -> Encoded:
    return call.state.object_stores.answer(_store(call, store_id))


@ROUTES.add("GET", "/objectstores/{id}/stats", "An object store's usage", "ObjectStoreStats")
def store_stats(call: Call, store_id: str) -> dict[str, Any]:
    return call.state.object_stores.stats(_store(call, store_id))


@ROUTES.add("POST", "/objectstores", "Create an object store", "ObjectStore", ObjectStoreCreate)
def create_store(call: Call, fields: ObjectStoreCreate) -> dict[str, Any]:
    store = call.state.object_stores.create(call.account_id, call.region, call.effects, fields)
    return call.state.object_stores.describe(store)


@ROUTES.add(
    "PATCH", "/objectstores/{id}", "Update an object store", "ObjectStore", ObjectStoreUpdate
)
def update_store(call: Call, store_id: str, changes: ObjectStoreUpdate) -> dict[str, Any]:
    store = _store(call, store_id)
    call.state.object_stores.update(store, call.effects, changes)
    return call.state.object_stores.describe(store)


@ROUTES.add("DELETE", "/objectstores/{id}", "Delete an object store", "Result")
def delete_store(call: Call, store_id: str) -> dict[str, Any]:
    call.state.object_stores.delete(_store(call, store_id), call.effects)
    return dict(SUCCESS)
