"""ObjectStore: an S3 bucket; its outputs are enough for boto3 to connect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulumi

from altostratus.client.errors import AltostratusError
from altostratus.providers import _regions, _validate
from altostratus.providers._base import Provider, ProviderError
from altostratus.providers._inputs import arg, inputs_of, region_arg, to_int
from altostratus.providers._records import RegionalRecords
from altostratus.providers._resource import AltostratusResource

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.client import ObjectStore as ObjectStoreRecord
    from altostratus.client.object_stores import ObjectStoresAPI


#: Objects counted at most before a delete is refused: one S3 listing request, whatever the
#: store holds (the refusal then says "1000 or more").
COUNTED_AT_MOST = 1000


@dataclass(kw_only=True)
class ObjectStoreArgs:
    name: pulumi.Input[str] | None = arg(_validate.store_name, replaces=True)
    """A bucket-safe name, unique per region; automatic when left out."""
    region: pulumi.Input[str] | None = region_arg()
    max_size_gb: pulumi.Input[int] | None = arg(_validate.size_gb, coerce=to_int)
    """Size limit in gigabytes (service default 500); the create request calls it ``size``."""
    access_key_id: pulumi.Input[str] | None = arg(_validate.access_key, secret=True)
    """The owner credential's key; the service makes an owner credential when left out."""
    force_destroy: pulumi.Input[bool] | None = arg(_validate.boolean)
    """Whether deleting or replacing the store may delete the objects it holds (default false:
    such a delete fails, naming the object count, and keeps the store and its objects; so does
    a delete whose objects cannot be counted: a store not ready, no S3 endpoint in the API's
    answer, an S3 listing refused or not S3's). Only the
    provider reads it; a replacement's delete uses the value of the store being replaced."""


class ObjectStoreProvider(RegionalRecords["ObjectStoreRecord"], Provider["ObjectStoreRecord"]):
    removal_takes_time = True
    kind = "object store"
    naming = "name"
    bucket_names = True
    full_create_answer = True
    full_update_answer = True
    state_field = "status"
    reference = "access_key_id"
    referred_kind = "object store credential"
    reference_missing = frozenset({"parameter_access_key_id_invalid"})
    fields = inputs_of(ObjectStoreArgs)

    def _records(self, api: Client) -> ObjectStoresAPI:
        return api.object_stores

    def _refers_in(self, api: Client, value: str, region: str) -> bool:
        credentials = api.object_store_credentials
        listed: list[Any] = []
        if not _regions.found(lambda: listed.extend(credentials.list(region=region))):
            return False
        return any(credential.access_key_id == value for credential in listed)

    def _referred(self, value: str) -> str:
        return "object store credential of the access_key_id given"  # the key is a secret

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

    def _updates(self, news: dict[str, Any], changed: set[str]) -> dict[str, Any]:
        # force_destroy guards the provider's delete; the API has no such field.
        return super()._updates(news, changed - {"force_destroy"})

    def _remove(self, api: Client, id_: str, props: dict[str, Any]) -> None:
        """Delete the store, unless ``force_destroy`` is not set and it holds objects, or its
        objects cannot be counted: the API deletes a store and everything in it at once, with
        no confirmation, so an unknown count refuses the delete as a count of one or more does."""
        if props.get("force_destroy") is not True:
            count = self._object_count(api, id_, props)
            if count:
                noun, them = ("object", "it") if count == 1 else ("objects", "them")
                many = " or more" if count >= COUNTED_AT_MOST else ""
                raise ProviderError(
                    f"the object store {id_} holds {count}{many} {noun}: deleting the store would "
                    f"delete {them} too; set force_destroy=True (and run pulumi up) to allow it, "
                    f"or empty the store first"
                )
        super()._remove(api, id_, props)

    def _abandon(self, api: Client, id_: str, inputs: dict[str, Any]) -> str:
        """A store this create made and never saw ready is deleted without counting: nothing of
        the user's can be in it, and keeping it would leave it outside the stack."""
        return super()._abandon(api, id_, {**inputs, "force_destroy": True})

    def _object_count(self, api: Client, id_: str, props: dict[str, Any]) -> int:
        """The objects in the store, listed with its owner credential (see ``store_objects``);
        a store being deleted counts none (its objects go with it whatever is done here), and
        one reporting a status other than ``ready`` cannot be counted."""
        region = self._region(props)
        record = api.object_stores.get(id_, region=region)
        if record.status == "deleting":
            return 0
        if record.status not in ("ready", None):  # a store reporting no status is listed
            raise _uncounted(id_, f"it is {record.status}, not ready")
        if not record.objectstore_endpoint:
            raise _uncounted(id_, "the API's answer names no S3 endpoint")
        outs = self._live(api, record, props)
        key, secret = outs.get("access_key_id"), outs.get("secret_access_key")
        if not key or not secret:
            raise _uncounted(id_, "its owner credential cannot be read")
        try:
            return api.object_stores.count_objects(
                record,
                access_key_id=str(key),
                secret_access_key=str(secret),
                region=region,
                most=COUNTED_AT_MOST,
            )
        except AltostratusError as error:
            raise _uncounted(id_, f"its listing failed: {error}") from None

    def _ready(self, record: ObjectStoreRecord) -> bool:
        return bool(record.status == "ready" and record.objectstore_endpoint)

    def _live(
        self, api: Client, record: ObjectStoreRecord, props: dict[str, Any]
    ) -> dict[str, Any]:
        """The record, its bucket and S3 address, and the owner credential's key pair."""
        live = super()._live(api, record, props)
        owner = record.owner_info.access_key_id if record.owner_info is not None else None
        secret = None
        if owner:
            for credential in api.object_store_credentials.list(region=self._region(props)):
                if credential.access_key_id == owner:
                    secret = credential.secret_access_key_id
        return {
            **live,
            "bucket_name": record.bucket_name,
            "endpoint_url": record.endpoint_url,
            "access_key_id": owner,
            "secret_access_key": secret,
        }


def _uncounted(id_: str, why: str) -> ProviderError:
    """The refusal of a delete whose objects cannot be counted: never a delete on a guess."""
    return ProviderError(
        f"cannot tell whether the object store {id_} is empty ({why}), so it is kept: deleting "
        f"it would delete any objects it holds; set force_destroy=True (and run pulumi up) to "
        f"delete it with its objects"
    )


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
    """The owner credential's name and access key (secret, as the key is)."""
    status: pulumi.Output[str]
    """``creating``, then ``ready`` (the create waits for it)."""
    objectstore_endpoint: pulumi.Output[str]
    """``<S3 address>/<bucket name>``."""
    bucket_name: pulumi.Output[str]
    """The store's S3 bucket."""
    endpoint_url: pulumi.Output[str]
    """The S3 address to give an S3 client."""
    access_key_id: pulumi.Output[str]
    secret_access_key: pulumi.Output[str]
    """The owner credential's secret key."""
    region: pulumi.Output[str]
    force_destroy: pulumi.Output[bool]

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
        force_destroy: pulumi.Input[bool] | None = None,
    ) -> None:
        self._declare(
            resource_name,
            args,
            opts,
            name=name,
            region=region,
            max_size_gb=max_size_gb,
            access_key_id=access_key_id,
            force_destroy=force_destroy,
        )

    # </generated>
