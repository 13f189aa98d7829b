"""Who gets what from the emulator's S3, as S3 answers it, with boto3 against stores made through
the API: anonymous callers and other accounts are refused (403) and never see data, a bucket that
does not exist is 404 for anyone, and bucket names follow S3's length rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import boto3
import pytest
import requests
from botocore import UNSIGNED
from botocore.config import Config
from botocore.exceptions import ClientError

from altostratus.client import Client
from altostratus.emulator import Emulator

from ..serving.test_server import call

SECRET = b"account a's object"


def _s3(emulator: Emulator, access_key_id: str | None = None, secret: str | None = None) -> Any:
    """A path-style boto3 client: signing with the key pair, or anonymous without one."""
    signing: dict[str, Any] = {}
    if access_key_id is None:
        signing["signature_version"] = UNSIGNED
    return boto3.client(
        "s3",
        endpoint_url=emulator.s3_url,
        aws_access_key_id=access_key_id or "unused",
        aws_secret_access_key=secret or "unused",
        region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}, **signing),
    )


def _store(emulator: Emulator, api_key: str, name: str) -> tuple[str, Any]:
    """A store of the key's account, and an S3 client signing as its owner."""
    with Client(api_key=api_key, api_url=emulator.api_url) as client:
        owner = client.object_store_credentials.create(name=f"{name}-owner")
        store = client.object_stores.create(name=name, access_key_id=owner.access_key_id)
    assert store.objectstore_endpoint is not None
    bucket = store.objectstore_endpoint.rsplit("/", 1)[1]
    return bucket, _s3(emulator, owner.access_key_id, owner.secret_access_key_id)


def _refused(action: Callable[[], Any]) -> tuple[int, str]:
    with pytest.raises(ClientError) as refused:
        action()
    response = refused.value.response
    return response["ResponseMetadata"]["HTTPStatusCode"], str(response["Error"]["Code"])


@pytest.fixture
def bucket_a(fresh_emulator: Emulator) -> str:
    """Account A's bucket, holding one object."""
    bucket, owner = _store(fresh_emulator, fresh_emulator.api_key, "private")
    owner.put_object(Bucket=bucket, Key="data.txt", Body=SECRET)
    return bucket


@pytest.fixture
def account_b(fresh_emulator: Emulator) -> tuple[str, Any]:
    """Another account's own bucket, and a client signing with its owner credential."""
    status, account = call(fresh_emulator, "POST", "/_emulator/accounts", {"name": "b"})
    assert status == 200
    return _store(fresh_emulator, account["api_key"], "theirs")


def _reads(client: Any, bucket: str) -> list[Callable[[], Any]]:
    return [
        lambda: client.get_object(Bucket=bucket, Key="data.txt"),
        lambda: client.head_object(Bucket=bucket, Key="data.txt"),
        lambda: client.get_object(Bucket=bucket, Key="missing.txt"),
        lambda: client.list_objects_v2(Bucket=bucket),
        lambda: client.head_bucket(Bucket=bucket),
        lambda: client.put_object(Bucket=bucket, Key="planted.txt", Body=b"x"),
        lambda: client.delete_object(Bucket=bucket, Key="data.txt"),
        lambda: client.get_bucket_acl(Bucket=bucket),
    ]


def test_anonymous_requests_to_a_private_bucket_are_403_and_never_data(
    fresh_emulator: Emulator, bucket_a: str
) -> None:
    anonymous = _s3(fresh_emulator)
    for read in _reads(anonymous, bucket_a):
        assert _refused(read) in ((403, "AccessDenied"), (403, "403")), read
    plain = requests.get(f"{fresh_emulator.s3_url}/{bucket_a}/data.txt", timeout=10)
    assert plain.status_code == 403 and SECRET not in plain.content
    assert b"<Code>AccessDenied</Code>" in plain.content
    assert _refused(anonymous.list_buckets) == (403, "AccessDenied")


def test_another_accounts_valid_credential_gets_403_never_data(
    fresh_emulator: Emulator, bucket_a: str, account_b: tuple[str, Any]
) -> None:
    their_bucket, theirs = account_b
    for read in _reads(theirs, bucket_a):
        assert _refused(read) in ((403, "AccessDenied"), (403, "403")), read
    copy = {"Bucket": their_bucket, "Key": "stolen", "CopySource": f"{bucket_a}/data.txt"}
    assert _refused(lambda: theirs.copy_object(**copy)) == (403, "AccessDenied")
    assert [b["Name"] for b in theirs.list_buckets()["Buckets"]] == [their_bucket]
    theirs.put_object(Bucket=their_bucket, Key="own.txt", Body=b"mine")
    assert theirs.get_object(Bucket=their_bucket, Key="own.txt")["Body"].read() == b"mine"


def test_a_bucket_that_does_not_exist_is_404_for_anyone_after_403_for_others_buckets(
    fresh_emulator: Emulator, bucket_a: str, account_b: tuple[str, Any]
) -> None:
    _, theirs = account_b
    missing = "nobody-has-this"
    for client in (theirs, _s3(fresh_emulator)):
        assert _refused(lambda c=client: c.list_objects_v2(Bucket=missing)) == (
            404,
            "NoSuchBucket",
        )
        assert _refused(lambda c=client: c.get_object(Bucket=missing, Key="k")) == (
            404,
            "NoSuchBucket",
        )
        assert _refused(lambda c=client: c.list_objects_v2(Bucket=bucket_a))[0] == 403


def test_a_63_character_bucket_is_served_and_names_past_s3s_limits_are_invalid(
    fresh_emulator: Emulator,
) -> None:
    bucket, owner = _store(fresh_emulator, fresh_emulator.api_key, "s" * 56)
    assert len(bucket) == 63
    owner.put_object(Bucket=bucket, Key="k", Body=b"v")
    assert owner.get_object(Bucket=bucket, Key="k")["Body"].read() == b"v"
    assert [o["Key"] for o in owner.list_objects_v2(Bucket=bucket)["Contents"]] == ["k"]
    for wrong in ("s" * 64, "ab", "a..b", "192.168.5.4", "-abc", "abc-"):
        for client in (owner, _s3(fresh_emulator)):
            refused = _refused(lambda c=client, w=wrong: c.list_objects_v2(Bucket=w))
            assert refused == (400, "InvalidBucketName"), (wrong, refused)
    assert _refused(lambda: owner.list_objects_v2(Bucket="abc")) == (404, "NoSuchBucket")
