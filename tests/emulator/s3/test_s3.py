"""boto3 against the S3 front: the operations a store's owner uses, and the refusals."""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any

import pytest
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.exceptions import ClientError

from altostratus.emulator.s3 import S3Key
from tests.support.served_s3 import (
    BUCKET,
    FOREIGN_BUCKET,
    OWNER,
    SIBLING,
    SMALL_BUCKET,
    SMALL_LIMIT,
    STRANGER,
    S3Server,
)


@pytest.fixture
def owner(s3: S3Server) -> Any:
    return s3.client(OWNER)


def error_code(excinfo: pytest.ExceptionInfo[ClientError]) -> str:
    return str(excinfo.value.response["Error"]["Code"])


def test_put_get_and_delete_an_object(owner: Any) -> None:
    owner.put_object(Bucket=BUCKET, Key="a/b c.txt", Body=b"hello", ContentType="text/plain")

    got = owner.get_object(Bucket=BUCKET, Key="a/b c.txt")
    assert got["Body"].read() == b"hello"
    assert got["ContentType"] == "text/plain"

    owner.delete_object(Bucket=BUCKET, Key="a/b c.txt")
    with pytest.raises(ClientError) as excinfo:
        owner.get_object(Bucket=BUCKET, Key="a/b c.txt")
    assert error_code(excinfo) == "NoSuchKey"


def test_metadata_names_with_underscores_survive(owner: Any) -> None:
    owner.put_object(Bucket=BUCKET, Key="k", Body=b"v", Metadata={"my_key": "1", "other-key": "2"})
    got = owner.head_object(Bucket=BUCKET, Key="k")
    assert got["Metadata"] == {"my_key": "1", "other-key": "2"}


def test_list_objects_with_a_prefix(owner: Any) -> None:
    for key in ("logs/1", "logs/2", "img/1", "lögs/ü+=&?.txt"):
        owner.put_object(Bucket=BUCKET, Key=key, Body=b"x")

    listed = owner.list_objects_v2(Bucket=BUCKET, Prefix="logs/")
    assert [item["Key"] for item in listed["Contents"]] == ["logs/1", "logs/2"]
    odd = owner.list_objects_v2(Bucket=BUCKET, Prefix="lögs/")
    assert [item["Key"] for item in odd["Contents"]] == ["lögs/ü+=&?.txt"]


def test_multipart_upload(owner: Any) -> None:
    first, last = b"a" * (5 * 1024**2), b"b" * 1000
    upload = owner.create_multipart_upload(Bucket=BUCKET, Key="big.bin")
    parts = []
    for number, data in enumerate((first, last), start=1):
        answer = owner.upload_part(
            Bucket=BUCKET, Key="big.bin", UploadId=upload["UploadId"], PartNumber=number, Body=data
        )
        parts.append({"ETag": answer["ETag"], "PartNumber": number})
    owner.complete_multipart_upload(
        Bucket=BUCKET, Key="big.bin", UploadId=upload["UploadId"], MultipartUpload={"Parts": parts}
    )

    assert owner.get_object(Bucket=BUCKET, Key="big.bin")["Body"].read() == first + last


def test_presigned_get_and_put(owner: Any) -> None:
    put_url = owner.generate_presigned_url(
        "put_object", Params={"Bucket": BUCKET, "Key": "shared.txt"}, ExpiresIn=300
    )
    request = urllib.request.Request(put_url, data=b"via presigned put", method="PUT")
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 200

    get_url = owner.generate_presigned_url(
        "get_object", Params={"Bucket": BUCKET, "Key": "shared.txt"}, ExpiresIn=300
    )
    with urllib.request.urlopen(get_url) as answer:
        assert answer.read() == b"via presigned put"


def test_a_tampered_presigned_url_is_refused(owner: Any) -> None:
    owner.put_object(Bucket=BUCKET, Key="one.txt", Body=b"1")
    url = owner.generate_presigned_url(
        "get_object", Params={"Bucket": BUCKET, "Key": "one.txt"}, ExpiresIn=300
    )
    with pytest.raises(urllib.error.HTTPError) as excinfo:
        urllib.request.urlopen(url.replace("one.txt", "two.txt"))
    assert excinfo.value.code == 403
    assert b"<Code>SignatureDoesNotMatch</Code>" in excinfo.value.read()


def test_an_unknown_key_is_refused(s3: S3Server) -> None:
    unknown = s3.client(S3Key("AKIAUNKNOWN000000000", "whatever-secret", "account-a"))
    with pytest.raises(ClientError) as excinfo:
        unknown.list_objects_v2(Bucket=BUCKET)
    assert error_code(excinfo) == "InvalidAccessKeyId"


def test_a_deleted_credential_stops_working_at_once(s3: S3Server, owner: Any) -> None:
    owner.put_object(Bucket=BUCKET, Key="k", Body=b"v")
    del s3.directory.keys[OWNER.access_key_id]
    with pytest.raises(ClientError) as excinfo:
        owner.get_object(Bucket=BUCKET, Key="k")
    assert error_code(excinfo) == "InvalidAccessKeyId"


def test_a_wrong_secret_is_refused(s3: S3Server) -> None:
    forger = s3.client(OWNER, secret="not-the-secret-" + "z" * 25)
    with pytest.raises(ClientError) as excinfo:
        forger.put_object(Bucket=BUCKET, Key="k", Body=b"v")
    assert error_code(excinfo) == "SignatureDoesNotMatch"
    assert excinfo.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403


@pytest.mark.parametrize("key", [SIBLING, STRANGER], ids=["not-the-owner", "another-account"])
def test_only_the_owner_credential_reaches_a_store(s3: S3Server, key: Any) -> None:
    client = s3.client(key)
    with pytest.raises(ClientError) as excinfo:
        client.put_object(Bucket=BUCKET, Key="k", Body=b"v")
    assert error_code(excinfo) == "AccessDenied"
    with pytest.raises(ClientError) as excinfo:
        client.list_objects_v2(Bucket=BUCKET)
    assert error_code(excinfo) == "AccessDenied"


def test_a_bucket_that_is_no_store_is_not_found(owner: Any) -> None:
    with pytest.raises(ClientError) as excinfo:
        owner.list_objects_v2(Bucket="nothing-here")
    assert error_code(excinfo) == "NoSuchBucket"


def test_copying_from_another_accounts_store_is_refused(s3: S3Server, owner: Any) -> None:
    s3.client(STRANGER).put_object(Bucket=FOREIGN_BUCKET, Key="secret", Body=b"s")
    with pytest.raises(ClientError) as excinfo:
        owner.copy_object(
            Bucket=BUCKET, Key="stolen", CopySource={"Bucket": FOREIGN_BUCKET, "Key": "secret"}
        )
    assert error_code(excinfo) == "AccessDenied"


def test_list_buckets_answers_only_the_signers_stores(s3: S3Server, owner: Any) -> None:
    names = [bucket["Name"] for bucket in owner.list_buckets()["Buckets"]]
    assert names == sorted([BUCKET, SMALL_BUCKET])
    theirs = s3.client(STRANGER).list_buckets()["Buckets"]
    assert [bucket["Name"] for bucket in theirs] == [FOREIGN_BUCKET]
    assert s3.client(SIBLING).list_buckets()["Buckets"] == []


def test_buckets_are_not_created_or_deleted_through_s3(owner: Any) -> None:
    with pytest.raises(ClientError) as excinfo:
        owner.create_bucket(Bucket="made-through-s3")
    assert error_code(excinfo) == "AccessDenied"
    with pytest.raises(ClientError) as excinfo:
        owner.delete_bucket(Bucket=BUCKET)
    assert error_code(excinfo) == "AccessDenied"


@pytest.mark.parametrize("query", ["?x-id=DeleteBucket", "?anything=1", "?uploads"])
def test_a_bucket_is_not_deleted_or_created_through_s3_whatever_the_query(
    s3: S3Server, owner: Any, query: str
) -> None:
    for method in ("DELETE", "PUT"):
        request = AWSRequest(method=method, url=f"{s3.url}/{BUCKET}{query}", data=b"")
        credentials = Credentials(OWNER.access_key_id, OWNER.secret_access_key)
        S3SigV4Auth(credentials, "s3", "us-east-1").add_auth(request)
        answer = urllib.request.Request(request.url, method=method, headers=dict(request.headers))
        with pytest.raises(urllib.error.HTTPError) as excinfo:
            urllib.request.urlopen(answer, data=b"")
        assert (excinfo.value.code, method) == (403, method)
        assert b"<Code>AccessDenied</Code>" in excinfo.value.read()
    assert owner.list_objects_v2(Bucket=BUCKET)["KeyCount"] == 0


def test_an_upload_that_does_not_match_its_content_md5_is_refused(owner: Any) -> None:
    with pytest.raises(ClientError) as excinfo:
        owner.put_object(
            Bucket=BUCKET, Key="k", Body=b"sent", ContentMD5="XUFAKrxLKna5cZ2REBfFkg=="
        )
    assert error_code(excinfo) == "BadDigest"
    assert owner.list_objects_v2(Bucket=BUCKET)["KeyCount"] == 0


def test_uploads_past_the_size_limit_are_refused(owner: Any) -> None:
    owner.put_object(Bucket=SMALL_BUCKET, Key="first", Body=b"1" * 600)
    with pytest.raises(ClientError) as excinfo:
        owner.put_object(Bucket=SMALL_BUCKET, Key="second", Body=b"2" * 600)
    assert error_code(excinfo) == "QuotaExceeded"
    assert excinfo.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403

    owner.put_object(Bucket=SMALL_BUCKET, Key="first", Body=b"3" * SMALL_LIMIT)
    assert owner.get_object(Bucket=SMALL_BUCKET, Key="first")["ContentLength"] == SMALL_LIMIT
    with pytest.raises(ClientError) as excinfo:
        owner.copy_object(
            Bucket=SMALL_BUCKET, Key="copy", CopySource={"Bucket": SMALL_BUCKET, "Key": "first"}
        )
    assert error_code(excinfo) == "QuotaExceeded"


def test_a_multipart_part_past_the_size_limit_is_refused(owner: Any) -> None:
    upload = owner.create_multipart_upload(Bucket=SMALL_BUCKET, Key="big")
    with pytest.raises(ClientError) as excinfo:
        owner.upload_part(
            Bucket=SMALL_BUCKET,
            Key="big",
            UploadId=upload["UploadId"],
            PartNumber=1,
            Body=b"x" * (SMALL_LIMIT + 1),
        )
    assert error_code(excinfo) == "QuotaExceeded"


def test_delete_bucket_removes_its_objects(s3: S3Server, owner: Any) -> None:
    owner.put_object(Bucket=BUCKET, Key="k", Body=b"v")
    owner.create_multipart_upload(Bucket=BUCKET, Key="pending")

    s3.service.delete_bucket(BUCKET)
    s3.service.delete_bucket(BUCKET)
    s3.service.create_bucket(BUCKET)

    assert owner.list_objects_v2(Bucket=BUCKET)["KeyCount"] == 0
    assert owner.list_multipart_uploads(Bucket=BUCKET).get("Uploads", []) == []
