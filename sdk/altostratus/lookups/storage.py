"""Lookups of object stores and their credentials; key pairs come back as secret Outputs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi

from altostratus.lookups._find import LookupResult, find, lifted
from altostratus.lookups._routed import routed
from altostratus.providers.object_store import ObjectStore, ObjectStoreProvider
from altostratus.providers.object_store_credential import (
    ObjectStoreCredential,
    ObjectStoreCredentialProvider,
)


# <generated: GetObjectStoreResult>
@dataclass(frozen=True)
class GetObjectStoreResult(LookupResult):
    """What a lookup found: the id and every output of ``ObjectStore``, under the same
    names; the outputs it keeps secret are secret Outputs."""

    name: str | None
    max_size_gb: int | None
    owner_info: pulumi.Output[dict[str, Any]]
    status: str | None
    objectstore_endpoint: str | None
    bucket_name: str | None
    endpoint_url: str | None
    access_key_id: pulumi.Output[str]
    secret_access_key: pulumi.Output[str]
    region: str | None
    force_destroy: bool | None


# </generated>


@routed
def get_object_store(
    id: str | None = None,
    name: str | None = None,
    region: str | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> GetObjectStoreResult:
    """The object store with this ``id`` or ``name``, and its owner credential's key pair
    (``access_key_id``, ``secret_access_key``), secret."""
    id_, outputs = find(ObjectStoreProvider(), id=id, keys={"name": name}, region=region)
    return GetObjectStoreResult.of(id_, outputs, ObjectStore._secret_outputs)


def get_object_store_output(
    id: pulumi.Input[str] | None = None,
    name: pulumi.Input[str] | None = None,
    region: pulumi.Input[str] | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> pulumi.Output[GetObjectStoreResult]:
    return lifted(get_object_store, opts=opts, id=id, name=name, region=region)


# <generated: GetObjectStoreCredentialResult>
@dataclass(frozen=True)
class GetObjectStoreCredentialResult(LookupResult):
    """What a lookup found: the id and every output of ``ObjectStoreCredential``, under the same
    names; the outputs it keeps secret are secret Outputs."""

    name: str | None
    access_key_id: pulumi.Output[str]
    secret_access_key_id: pulumi.Output[str]
    secret_access_key: pulumi.Output[str]
    max_size_gb: int | None
    suspended: bool | None
    status: str | None
    region: str | None


# </generated>


@routed
def get_object_store_credential(
    id: str | None = None,
    name: str | None = None,
    access_key_id: str | None = None,
    region: str | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> GetObjectStoreCredentialResult:
    """The credential with this ``id``, ``name`` or ``access_key_id``; its key pair is secret
    (``secret_access_key`` is the API's ``secret_access_key_id``)."""
    keys = {"name": name, "access_key_id": access_key_id}
    id_, outputs = find(ObjectStoreCredentialProvider(), id=id, keys=keys, region=region)
    return GetObjectStoreCredentialResult.of(id_, outputs, ObjectStoreCredential._secret_outputs)


def get_object_store_credential_output(
    id: pulumi.Input[str] | None = None,
    name: pulumi.Input[str] | None = None,
    access_key_id: pulumi.Input[str] | None = None,
    region: pulumi.Input[str] | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> pulumi.Output[GetObjectStoreCredentialResult]:
    return lifted(
        get_object_store_credential,
        id=id,
        name=name,
        access_key_id=access_key_id,
        region=region,
    )
