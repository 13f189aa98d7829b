"""Object stores: a bucket each, an owner credential, provisioning over emulated time."""

from __future__ import annotations

import re
import string
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from altostratus.emulator.errors import BadRequest, invalid
from altostratus.emulator.reading.bodies import (
    CredentialCreate,
    ObjectStoreCreate,
    ObjectStoreUpdate,
)
from altostratus.emulator.state.accounts import require_quota
from altostratus.emulator.state.base import Effects, Record, Store, entry, new_id
from altostratus.emulator.state.ids import random_text
from altostratus.emulator.state.table import RecordTable

if TYPE_CHECKING:
    from altostratus.emulator.state import State

DEFAULT_SIZE_GB = 500
# The store's name becomes "<name>-<6 character suffix>", which must be a valid S3 bucket name.
_NAME = re.compile(r"^[a-z0-9](?:[a-z0-9.-]{0,54}[a-z0-9])?$")


def check_store_name(name: str) -> None:
    if not _NAME.match(name) or ".." in name or ".-" in name or "-." in name:
        raise invalid(
            "name",
            "An object store's name must be 1 to 56 lower-case letters, digits, hyphens or "
            "dots, starting and ending with a letter or digit",
        )
    if name.startswith("xn--") or re.fullmatch(r"[0-9.]+", name):
        raise invalid("name", "The object store's name cannot form a valid bucket name")


@dataclass
class ObjectStore(Record):
    name: str
    suffix: str
    max_size_gb: int
    owner_id: str
    ready_at: float
    auto_credential_id: str | None = None

    @property
    def bucket(self) -> str:
        return f"{self.name}-{self.suffix}"


class ObjectStores(Store[ObjectStore, ObjectStoreCreate, ObjectStoreUpdate]):
    kind = "objectstore"
    label = "object store"
    feature = "object_store"
    indexed = ("name", "bucket", "owner_id")
    takes_time = True

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.records = RecordTable(self.indexed, weigh=lambda store: store.max_size_gb)

    def seed_entry(self, store: ObjectStore) -> dict[str, Any]:
        """With its owner's key (its objects are the seed export's to add)."""
        owner = self.state.credentials.records.get(store.owner_id)
        return entry(
            store,
            name=store.name,
            size=store.max_size_gb,
            access_key_id=None if owner is None else owner.access_key_id,
        )

    def gigabytes(self, account_id: str) -> int:
        """The sizes of the account's stores, summed, in every region (kept as they change)."""
        return self.records.total(account_id)

    def answer_inputs(self, store: ObjectStore) -> Hashable:
        owner = self.state.credentials.records[store.owner_id]
        ready = self.state.clock.monotonic() >= store.ready_at
        shown = (owner.id, owner.name, owner.access_key_id)
        return ready, self.deleting(store), shown, self.state.settings.s3_url

    def describe(self, store: ObjectStore) -> dict[str, Any]:
        owner = self.state.credentials.records[store.owner_id]
        ready = self.state.clock.monotonic() >= store.ready_at
        status = "ready" if ready else "creating"
        return {
            "id": store.id,
            "name": store.name,
            "max_size_gb": store.max_size_gb,
            "max_size": store.max_size_gb,
            "owner_info": {
                "name": owner.name,
                "access_key_id": owner.access_key_id,
                "credential_id": owner.id,
            },
            "status": "deleting" if self.deleting(store) else status,
            "objectstore_endpoint": f"{self.state.settings.s3_url}/{store.bucket}",
        }

    def stats(self, store: ObjectStore) -> dict[str, int]:
        """What ``civo objectstore show`` reads: kilobytes used and permitted, objects held."""
        used, objects = self.state.buckets.contents(store.bucket)
        return {
            "size_kb_utilised": -(-used // 1024),
            "max_size_kb": store.max_size_gb * self.state.settings.bytes_per_gb // 1024,
            "num_objects": objects,
        }

    def _owner(self, account_id: str, region: str, access_key_id: str) -> str:
        credential = self.state.credentials.by_key(access_key_id)
        if credential is None or credential.account_id != account_id or credential.region != region:
            raise BadRequest(
                "access_key_id names no credential of this account in this region",
                "parameter_access_key_id_invalid",
            )
        return credential.id

    def create(
        self, account_id: str, region: str, effects: Effects, fields: ObjectStoreCreate
    ) -> ObjectStore:
        """A bucket named ``<name>-<6 character suffix>``; without ``access_key_id``, its owner
        is a credential named after the bucket, made with it."""
        self.require_feature(region)
        name, size, access_key_id = fields.name, fields.size, fields.access_key_id
        check_store_name(name)
        self.check_name_free(account_id, region, name)
        size = DEFAULT_SIZE_GB if size is None else size
        require_quota(self.state, account_id, "objectstore_gb", size)
        suffix = self._suffix()
        while self._taken(account_id, region, f"{name}-{suffix}"):
            suffix = self._suffix()
        auto_id = None
        if access_key_id is None:
            credentials = self.state.credentials
            owner = CredentialCreate(name=f"{name}-{suffix}")
            auto = credentials.create(account_id, region, effects, owner)
            owner_id = auto_id = auto.id
        else:
            owner_id = self._owner(account_id, region, access_key_id)
        store = ObjectStore(
            id=new_id(),
            account_id=account_id,
            region=region,
            name=name,
            suffix=suffix,
            max_size_gb=size,
            owner_id=owner_id,
            ready_at=self.state.clock.monotonic() + self.state.settings.objectstore_ready_seconds,
            auto_credential_id=auto_id,
        )
        self.records[store.id] = store
        bucket = store.bucket
        effects.after(lambda: self.state.buckets.create_bucket(bucket))
        effects.emit(account_id, "objectstore.created", store.id)
        return store

    def _taken(self, account_id: str, region: str, bucket: str) -> bool:
        """Whether ``bucket`` is a bucket already, or the name of a credential of the scope (the
        owner credential made with a store takes the bucket's name)."""
        if self.records.find("bucket", bucket):
            return True
        credentials = self.state.credentials.records.find("name", bucket)
        return any((c.account_id, c.region) == (account_id, region) for c in credentials)

    @staticmethod
    def _suffix() -> str:
        return random_text(string.ascii_lowercase + string.digits, 6)

    def update(self, store: ObjectStore, effects: Effects, changes: ObjectStoreUpdate) -> None:
        self.require_live(store)
        if changes.access_key_id is not None:
            store.owner_id = self._owner(store.account_id, store.region, changes.access_key_id)
        if changes.max_size_gb is not None:
            growth = changes.max_size_gb - store.max_size_gb
            if growth > 0:
                require_quota(self.state, store.account_id, "objectstore_gb", growth)
            store.max_size_gb = changes.max_size_gb
        effects.emit(store.account_id, "objectstore.updated", store.id)

    def remove(self, store: ObjectStore, effects: Effects) -> None:
        """Removes the bucket with its objects, and the owner credential made with the store."""
        del self.records[store.id]
        bucket = store.bucket
        effects.after(lambda: self.state.buckets.delete_bucket(bucket))
        effects.emit(store.account_id, "objectstore.deleted", store.id)
        auto = self.state.credentials.records.get(store.auto_credential_id or "")
        if auto is not None and not self.records.find("owner_id", auto.id):
            self.state.credentials.delete(auto, effects)
