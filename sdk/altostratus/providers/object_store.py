"""ObjectStore: an S3 bucket; its outputs are enough for boto3 to connect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulumi

from altostratus.providers import _validate
from altostratus.providers._base import Provider
from altostratus.providers._inputs import arg, inputs_of, region_arg, to_int
from altostratus.providers._records import RegionalRecords
from altostratus.providers._resource import AltostratusResource

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.client import ObjectStore as ObjectStoreRecord
    from altostratus.client.object_stores import ObjectStoresAPI


@dataclass(kw_only=True)
class ObjectStoreArgs:
    name: pulumi.Input[str] | None = arg(_validate.store_name, replaces=True)
    """A bucket-safe name, unique per region; automatic when left out."""
    region: pulumi.Input[str] | None = region_arg()
    max_size_gb: pulumi.Input[int] | None = arg(_validate.size_gb, coerce=to_int)
    """Size limit in gigabytes (service default 500); the create request calls it ``size``."""
    access_key_id: pulumi.Input[str] | None = arg(_validate.access_key, secret=True)
    """The owner credential's key; the service makes an owner credential when left out."""


class ObjectStoreProvider(RegionalRecords["ObjectStoreRecord"], Provider["ObjectStoreRecord"]):
    removal_takes_time = True
    kind = "object store"
    naming = "name"
    bucket_names = True
    full_create_answer = True
    full_update_answer = True
    state_field = "status"
    fields = inputs_of(ObjectStoreArgs)

    def _records(self, api: Client) -> ObjectStoresAPI:
        return api.object_stores

    def _post(self, api: Client, inputs: dict[str, Any]) -> ObjectStoreRecord:
        return api.object_stores.create(
            name=inputs["name"],
            max_size_gb=inputs.get("max_size_gb"),
            access_key_id=inputs.get("access_key_id"),
            region=self._region(inputs),
        )

    def _put(
        self, api: Client, id_: str, changes: dict[str, Any], props: dict[str, Any]
    ) -> ObjectStoreRecord:
        return api.object_stores.update(
            id_,
            max_size_gb=changes.get("max_size_gb"),
            access_key_id=changes.get("access_key_id"),
            region=self._region(props),
        )

    def _ready(self, record: ObjectStoreRecord) -> bool:
        return bool(record.status == "ready" and record.objectstore_endpoint)

    def _live(
        self, api: Client, record: ObjectStoreRecord, props: dict[str, Any]
    ) -> dict[str, Any]:
        """The record, its bucket and S3 address, and the owner credential's key pair."""
        live = super()._live(api, record, props)
        endpoint = record.objectstore_endpoint or ""
        base, _, bucket = endpoint.rpartition("/")
        owner = record.owner_info.access_key_id if record.owner_info is not None else None
        secret = None
        if owner:
            for credential in api.object_store_credentials.list(region=self._region(props)):
                if credential.access_key_id == owner:
                    secret = credential.secret_access_key_id
        return {
            **live,
            "bucket_name": bucket or None,
            "endpoint_url": base or None,
            "access_key_id": owner,
            "secret_access_key": secret,
        }


class ObjectStore(AltostratusResource[ObjectStoreArgs], module="altostratus", name="ObjectStore"):
    """An object store. Changing ``name`` or ``region`` replaces it; ``max_size_gb`` and
    ``access_key_id`` update in place. Create returns once the store is ``ready``. Give
    ``endpoint_url``, ``access_key_id`` and ``secret_access_key`` to boto3."""

    _provider_class = ObjectStoreProvider
    _args_class = ObjectStoreArgs
    _secret_outputs = ("access_key_id", "secret_access_key", "owner_info")

    name: pulumi.Output[str]
    max_size_gb: pulumi.Output[int]
    owner_info: pulumi.Output[dict[str, Any]]
    status: pulumi.Output[str]
    objectstore_endpoint: pulumi.Output[str]
    bucket_name: pulumi.Output[str]
    endpoint_url: pulumi.Output[str]
    access_key_id: pulumi.Output[str]
    secret_access_key: pulumi.Output[str]
    region: pulumi.Output[str]

    # <generated: ObjectStore.__init__>
    def __init__(
        self,
        resource_name: str,
        args: ObjectStoreArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        name: pulumi.Input[str] | None = None,
        region: pulumi.Input[str] | None = None,
        max_size_gb: pulumi.Input[int] | None = None,
        access_key_id: pulumi.Input[str] | None = None,
    ) -> None:
        super().__init__(
            resource_name,
            args,
            opts,
            name=name,
            region=region,
            max_size_gb=max_size_gb,
            access_key_id=access_key_id,
        )

    # </generated>
