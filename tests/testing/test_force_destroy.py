"""An object store holding objects is kept by a destroy or a replacement unless
``force_destroy`` is set; the objects and the owner credential stay with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import boto3
import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Result, Stack
from tests.support.fake_s3 import HTML, fake_s3


def program() -> None:
    config = pulumi.Config()
    credential = alto.ObjectStoreCredential("owner")
    alto.ObjectStore(
        "assets",
        name=config.get("storeName") or "assets",
        access_key_id=credential.access_key_id,
        force_destroy=config.get_bool("forceDestroy") or False,
    )


def s3_of(result: Result) -> tuple[Any, str]:
    outs = result.resources["ObjectStore:assets"].outputs
    client = boto3.client(
        "s3",
        endpoint_url=outs["endpoint_url"],
        aws_access_key_id=outs["access_key_id"],
        aws_secret_access_key=outs["secret_access_key"],
        region_name="us-east-1",
    )
    return client, str(outs["bucket_name"])


def keys(s3: Any, bucket: str) -> list[str]:
    return [item["Key"] for item in s3.list_objects_v2(Bucket=bucket).get("Contents", [])]


def test_a_destroy_keeps_a_store_with_objects_and_says_how_many(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    stack = make_stack(program)
    s3, bucket = s3_of(stack.up())
    for key in ("a.txt", "b.txt", "c.txt"):
        s3.put_object(Bucket=bucket, Key=key, Body=b"kept")

    with pytest.raises(DeploymentFailed) as failed:
        stack.destroy()
    (error,) = failed.value.result.errors
    assert (error.op, error.kind, error.name) == ("delete", "ObjectStore", "assets")
    assert "holds 3 objects" in error.message and "force_destroy" in error.message
    assert "\n" not in error.message
    # The store, its objects and its owner credential are all still there, and in the state.
    assert keys(s3, bucket) == ["a.txt", "b.txt", "c.txt"]
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        assert len(client.object_stores.list()) == 1
        assert len(client.object_store_credentials.list()) == 1
    kinds = {res.type.rsplit(":", 1)[-1] for res in stack.state.resources}
    assert {"ObjectStore", "ObjectStoreCredential"} <= kinds

    stack.set_config("forceDestroy", "true")
    assert stack.up().changed() == {"ObjectStore:assets": "update"}
    stack.destroy()
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        assert client.object_stores.list() == []
        assert client.object_store_credentials.list() == []


def test_an_empty_store_is_destroyed_without_force_destroy(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    stack = make_stack(program)
    stack.up()
    stack.destroy()
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        assert client.object_stores.list() == []


def test_a_replacement_keeps_a_store_with_objects(make_stack: Callable[..., Stack]) -> None:
    stack = make_stack(program)
    s3, bucket = s3_of(stack.up())
    s3.put_object(Bucket=bucket, Key="only.txt", Body=b"kept")

    stack.set_config("storeName", "assets-two")
    with pytest.raises(DeploymentFailed) as failed:
        stack.up()
    assert any("holds 1 object:" in line for line in failed.value.result.failures)
    assert keys(s3, bucket) == ["only.txt"]


def test_a_replacement_keeps_a_store_whose_objects_cannot_be_counted(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store's S3 answers an HTML page: its objects are unknown, so it is not deleted."""
    stack = make_stack(program)
    old = stack.up().resources["ObjectStore:assets"].id
    stack.set_config("storeName", "assets-two")
    with fake_s3(200, HTML, "text/html") as s3_url:
        monkeypatch.setattr(fresh_emulator.state.settings, "s3_url", s3_url)
        with pytest.raises(DeploymentFailed) as failed:
            stack.up()
    (line,) = [line for line in failed.value.result.failures if "cannot tell" in line]
    assert f"cannot tell whether the object store {old} is empty" in line
    assert "not an S3 ListBucketResult" in line and "set force_destroy=True" in line
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        assert old in {store.id for store in client.object_stores.list()}
