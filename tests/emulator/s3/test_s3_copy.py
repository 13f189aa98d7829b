"""Copies read only what their signer owns: CopyObject and UploadPartCopy, with or without a
leading slash, URL-encoded or not, with ``?versionId``, header-signed or presigned. A source in
another account's store, or in a store of the same account owned by another credential, is
refused (``AccessDenied``) and no byte is copied; a source spelled to mean two things is refused
outright."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
import requests
from botocore.exceptions import ClientError

from altostratus.emulator.s3 import S3Bucket
from tests.support.served_s3 import BUCKET, FOREIGN_BUCKET, OWNER, SIBLING, STRANGER, S3Server

SIBLING_BUCKET = "siblings-jkl012"
SECRET_KEY = "dir/secret ü+.txt"
TRICKY_KEY = "dir/secret ü+%41?versionId=x#.txt"
"""A key only an encoded copy source can name."""
SECRET = b"the victim's bytes"


@pytest.fixture
def stores(s3: S3Server) -> S3Server:
    """The owner's store, a store of the same account owned by its sibling credential, and a
    store of another account, each holding a secret."""
    s3.directory.buckets[SIBLING_BUCKET] = S3Bucket(
        SIBLING_BUCKET, SIBLING.account_id, SIBLING.access_key_id, 1024**2
    )
    s3.service.create_bucket(SIBLING_BUCKET)
    s3.client(SIBLING).put_object(Bucket=SIBLING_BUCKET, Key=SECRET_KEY, Body=SECRET)
    s3.client(STRANGER).put_object(Bucket=FOREIGN_BUCKET, Key=SECRET_KEY, Body=SECRET)
    s3.client(STRANGER).put_object(Bucket=FOREIGN_BUCKET, Key=TRICKY_KEY, Body=SECRET)
    s3.client(OWNER).put_object(Bucket=BUCKET, Key=SECRET_KEY, Body=b"mine")
    s3.client(OWNER).put_object(Bucket=BUCKET, Key=TRICKY_KEY, Body=b"tricky")
    return s3


def _forms(bucket: str, key: str, version: str | None = None) -> list[str]:
    """Every spelling of a copy source a client may send: three encoded, then two not."""
    suffix = f"?versionId={version}" if version else ""
    encoded = quote(key, safe="")
    return [
        f"{bucket}/{encoded}{suffix}",
        f"/{bucket}/{encoded}{suffix}",
        f"/{quote(bucket, safe='')}/{quote(key, safe='/')}{suffix}",
        f"{bucket}/{key}{suffix}",
        f"/{bucket}/{key}{suffix}",
    ]


ENCODED = range(3)


def _with_source(client: Any, source: str) -> Any:
    """``client``, sending ``source`` byte for byte as its signed ``x-amz-copy-source``."""

    def put_header(request: Any, **_: Any) -> None:
        del request.headers["x-amz-copy-source"]  # a message's headers add up: replace it
        request.headers["x-amz-copy-source"] = source  # sent as UTF-8

    client.meta.events.register_first("before-sign.s3.*", put_header)
    return client


def _code(action: Callable[[], Any]) -> str:
    with pytest.raises(ClientError) as refused:
        action()
    return str(refused.value.response["Error"]["Code"])


def _keys(client: Any, bucket: str) -> list[str]:
    return [item["Key"] for item in client.list_objects_v2(Bucket=bucket).get("Contents", [])]


VICTIMS = [FOREIGN_BUCKET, SIBLING_BUCKET]


@pytest.mark.parametrize("victim", VICTIMS, ids=["other-account", "other-credential"])
@pytest.mark.parametrize("form", range(5))
def test_copy_object_from_a_store_not_owned_is_refused(
    stores: S3Server, victim: str, form: int
) -> None:
    source = _forms(victim, SECRET_KEY)[form]
    owner = _with_source(stores.client(OWNER), source)
    code = _code(lambda: owner.copy_object(Bucket=BUCKET, Key="k", CopySource="ignored/x"))
    assert code == "AccessDenied"
    assert "k" not in _keys(stores.client(OWNER), BUCKET)


@pytest.mark.parametrize("form", ENCODED)
def test_a_key_only_encoding_can_name_is_refused_and_copied_exactly(
    stores: S3Server, form: int
) -> None:
    owner = _with_source(stores.client(OWNER), _forms(FOREIGN_BUCKET, TRICKY_KEY)[form])
    code = _code(lambda: owner.copy_object(Bucket=BUCKET, Key="k", CopySource="ignored/x"))
    assert code == "AccessDenied"
    owner = _with_source(stores.client(OWNER), _forms(BUCKET, TRICKY_KEY)[form])
    owner.copy_object(Bucket=BUCKET, Key="k", CopySource="ignored/x")
    assert stores.client(OWNER).get_object(Bucket=BUCKET, Key="k")["Body"].read() == b"tricky"


@pytest.mark.parametrize("victim", VICTIMS, ids=["other-account", "other-credential"])
@pytest.mark.parametrize("form", range(5))
def test_upload_part_copy_from_a_store_not_owned_is_refused(
    stores: S3Server, victim: str, form: int
) -> None:
    plain = stores.client(OWNER)
    upload = plain.create_multipart_upload(Bucket=BUCKET, Key="k")["UploadId"]
    owner = _with_source(stores.client(OWNER), _forms(victim, SECRET_KEY)[form])
    code = _code(
        lambda: owner.upload_part_copy(
            Bucket=BUCKET, Key="k", UploadId=upload, PartNumber=1, CopySource="ignored/x"
        )
    )
    assert code == "AccessDenied"
    assert plain.list_parts(Bucket=BUCKET, Key="k", UploadId=upload).get("Parts", []) == []


@pytest.mark.parametrize(
    "source",
    [
        f"//{BUCKET}/{FOREIGN_BUCKET}/{SECRET_KEY}",
        f"/{BUCKET}/{FOREIGN_BUCKET}/{SECRET_KEY}?versionId=x&x-id=y",
        f"{BUCKET}",
        f"{BUCKET}/",
        "/",
    ],
    ids=["double-slash", "extra-query", "no-key", "empty-key", "nothing"],
)
@pytest.mark.parametrize("operation", ["copy_object", "upload_part_copy"])
def test_a_source_spelled_to_mean_two_things_is_refused(
    stores: S3Server, source: str, operation: str
) -> None:
    plain = stores.client(OWNER)
    upload = plain.create_multipart_upload(Bucket=BUCKET, Key="k")["UploadId"]
    owner = _with_source(stores.client(OWNER), source)
    if operation == "copy_object":
        code = _code(lambda: owner.copy_object(Bucket=BUCKET, Key="k", CopySource="x/y"))
    else:
        code = _code(
            lambda: owner.upload_part_copy(
                Bucket=BUCKET, Key="k", UploadId=upload, PartNumber=1, CopySource="x/y"
            )
        )
    assert code == "InvalidArgument"
    assert "k" not in _keys(plain, BUCKET)
    assert plain.list_parts(Bucket=BUCKET, Key="k", UploadId=upload).get("Parts", []) == []


@pytest.mark.parametrize("form", range(5))
def test_copies_within_owned_stores_copy_exactly_the_named_key(stores: S3Server, form: int) -> None:
    plain = stores.client(OWNER)
    for decoy in ("dir/secret ü .txt", "dir/secret%20ü+.txt", "dir/secret \xc3\xbc+.txt"):
        plain.put_object(Bucket=BUCKET, Key=decoy, Body=b"decoy")
    owner = _with_source(stores.client(OWNER), _forms(BUCKET, SECRET_KEY)[form])
    owner.copy_object(Bucket=BUCKET, Key="copy", CopySource="ignored/x")
    assert plain.get_object(Bucket=BUCKET, Key="copy")["Body"].read() == b"mine"
    upload = plain.create_multipart_upload(Bucket=BUCKET, Key="parts")["UploadId"]
    part = owner.upload_part_copy(
        Bucket=BUCKET, Key="parts", UploadId=upload, PartNumber=1, CopySource="ignored/x"
    )
    plain.complete_multipart_upload(
        Bucket=BUCKET,
        Key="parts",
        UploadId=upload,
        MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": part["CopyPartResult"]["ETag"]}]},
    )
    assert plain.get_object(Bucket=BUCKET, Key="parts")["Body"].read() == b"mine"


def test_a_version_is_copied_by_its_id(stores: S3Server) -> None:
    plain = stores.client(OWNER)
    plain.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
    first = plain.put_object(Bucket=BUCKET, Key="v", Body=b"first")["VersionId"]
    plain.put_object(Bucket=BUCKET, Key="v", Body=b"second")
    for form, source in enumerate(_forms(BUCKET, "v", first)):
        owner = _with_source(stores.client(OWNER), source)
        owner.copy_object(Bucket=BUCKET, Key=f"copy{form}", CopySource="ignored/x")
        assert plain.get_object(Bucket=BUCKET, Key=f"copy{form}")["Body"].read() == b"first"
    owner = _with_source(stores.client(OWNER), f"{FOREIGN_BUCKET}/{SECRET_KEY}?versionId={first}")
    assert _code(lambda: owner.copy_object(Bucket=BUCKET, Key="k", CopySource="x/y")) == (
        "AccessDenied"
    )


def test_boto3s_own_copy_sources_work(stores: S3Server) -> None:
    owner = stores.client(OWNER)
    owner.copy_object(Bucket=BUCKET, Key="a", CopySource={"Bucket": BUCKET, "Key": SECRET_KEY})
    owner.copy_object(Bucket=BUCKET, Key="b", CopySource=f"{BUCKET}/{SECRET_KEY}")
    for key in ("a", "b"):
        assert owner.get_object(Bucket=BUCKET, Key=key)["Body"].read() == b"mine"
    refused = _code(
        lambda: owner.copy_object(
            Bucket=BUCKET, Key="c", CopySource={"Bucket": FOREIGN_BUCKET, "Key": SECRET_KEY}
        )
    )
    assert refused == "AccessDenied"


def test_a_presigned_put_does_not_honour_an_unsigned_copy_source(stores: S3Server) -> None:
    owner = stores.client(OWNER)
    url = owner.generate_presigned_url(
        "put_object", Params={"Bucket": BUCKET, "Key": "k"}, ExpiresIn=300
    )
    answer = requests.put(
        url,
        data=b"",
        headers={"x-amz-copy-source": f"/{FOREIGN_BUCKET}/{quote(SECRET_KEY)}"},
        timeout=10,
    )
    assert answer.status_code == 403
    assert b"<Code>AccessDenied</Code>" in answer.content
    assert b"<HeadersNotSigned>x-amz-copy-source</HeadersNotSigned>" in answer.content
    assert "k" not in _keys(owner, BUCKET)
    assert requests.put(url, data=b"plain", timeout=10).status_code == 200
    assert owner.get_object(Bucket=BUCKET, Key="k")["Body"].read() == b"plain"
