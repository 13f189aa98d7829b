"""A store's objects counted through its S3 endpoint, signed with Signature V4 as S3 checks it."""

from __future__ import annotations

import boto3
import pytest

from altostratus.client import Client
from altostratus.client.errors import PermissionDeniedError


def test_objects_are_counted_across_pages(client: Client) -> None:
    credential = client.object_store_credentials.create(name="owner")
    store = client.object_stores.create(name="media", access_key_id=credential.access_key_id)
    store = client.object_stores.get(store.id)
    secret = str(credential.secret_access_key_id)
    endpoint, _, bucket = str(store.objectstore_endpoint).rpartition("/")
    s3 = boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=credential.access_key_id,
        aws_secret_access_key=secret,
        region_name="us-east-1",
    )
    count = lambda: client.object_stores.count_objects(  # noqa: E731
        store, access_key_id=str(credential.access_key_id), secret_access_key=secret, region="lon1"
    )
    assert count() == 0
    for index in range(1003):  # more than one page of 1000
        s3.put_object(Bucket=bucket, Key=f"dir/{index:04}.txt", Body=b"x")
    assert count() == 1003
    bounded = client.object_stores.count_objects(
        store,
        access_key_id=str(credential.access_key_id),
        secret_access_key=secret,
        region="lon1",
        most=1000,
    )
    assert bounded == 1000  # the first page only


def test_a_wrong_secret_is_the_clients_403(client: Client) -> None:
    credential = client.object_store_credentials.create(name="owner")
    store = client.object_stores.get(
        client.object_stores.create(name="media", access_key_id=credential.access_key_id).id
    )
    with pytest.raises(PermissionDeniedError) as refused:
        client.object_stores.count_objects(
            store,
            access_key_id=str(credential.access_key_id),
            secret_access_key="wrong-secret",
            region="lon1",
        )
    assert refused.value.code == "SignatureDoesNotMatch"
