"""Lookups of object stores and their credentials; key pairs come back as secret Outputs."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi

from altostratus.lookups._find import LookupResult, find, lifted
from altostratus.providers.object_store import ObjectStore, ObjectStoreProvider
from altostratus.providers.object_store_credential import (
    ObjectStoreCredential,
    ObjectStoreCredentialProvider,
)


@dataclass(frozen=True)
class GetObjectStoreResult(LookupResult):
    name: str | None
    region: str | None
    max_size_gb: int | None
    status: str | None
    objectstore_endpoint: str | None
    bucket_name: str | None
    endpoint_url: str | None
    access_key_id: pulumi.Output[str]
    """The owner credential's key id (secret)."""
    secret_access_key: pulumi.Output[str]
    """The owner credential's secret key (secret)."""


def get_object_store(
    id: str | None = None, name: str | None = None, region: str | None = None
) -> GetObjectStoreResult:
    """The object store with this ``id`` or ``name``, and its owner's key pair."""
    id_, outputs = find(ObjectStoreProvider(), id=id, keys={"name": name}, region=region)
    return GetObjectStoreResult.of(id_, outputs, ObjectStore._secret_outputs)


def get_object_store_output(
    id: pulumi.Input[str] | None = None,
    name: pulumi.Input[str] | None = None,
    region: pulumi.Input[str] | None = None,
) -> pulumi.Output[GetObjectStoreResult]:
    return lifted(get_object_store, id=id, name=name, region=region)


@dataclass(frozen=True)
class GetObjectStoreCredentialResult(LookupResult):
    name: str | None
    region: str | None
    max_size_gb: int | None
    suspended: bool | None
    status: str | None
    access_key_id: pulumi.Output[str]
    """The key id (secret)."""
    secret_access_key: pulumi.Output[str]
    """The secret key (secret); the API's ``secret_access_key_id``."""


def get_object_store_credential(
    id: str | None = None,
    name: str | None = None,
    access_key_id: str | None = None,
    region: str | None = None,
) -> GetObjectStoreCredentialResult:
    """The credential with this ``id``, ``name`` or ``access_key_id``."""
    keys = {"name": name, "access_key_id": access_key_id}
    id_, outputs = find(ObjectStoreCredentialProvider(), id=id, keys=keys, region=region)
    return GetObjectStoreCredentialResult.of(id_, outputs, ObjectStoreCredential._secret_outputs)


def get_object_store_credential_output(
    id: pulumi.Input[str] | None = None,
    name: pulumi.Input[str] | None = None,
    access_key_id: pulumi.Input[str] | None = None,
    region: pulumi.Input[str] | None = None,
) -> pulumi.Output[GetObjectStoreCredentialResult]:
    return lifted(
        get_object_store_credential,
        id=id,
        name=name,
        access_key_id=access_key_id,
        region=region,
    )
