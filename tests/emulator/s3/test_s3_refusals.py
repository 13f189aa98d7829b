"""What the S3 front refuses before moto sees a request: a header-signed request dated more than
15 minutes from the server's clock (S3's ``RequestTimeTooSkewed``), and an upload id that is not
an unfinished upload of the addressed key (``NoSuchUpload``, never a 500), but for a repeated
complete of the upload that made the key, answered as S3 and moto answer it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import requests
from botocore.exceptions import ClientError

from tests.support.served_s3 import BUCKET, DIRECT_BUCKET, OWNER, SMALL_BUCKET, S3Server, WallClock

MINUTE = 60.0


def _error(action: Callable[[], Any]) -> dict[str, Any]:
    with pytest.raises(ClientError) as refused:
        action()
    return dict(refused.value.response["Error"])


@pytest.mark.parametrize("signature_version", ["s3v4", "s3"], ids=["v4", "v2"])
@pytest.mark.parametrize("minutes", [16.0, -16.0, 400 * 24 * 60.0])
def test_a_header_signed_request_far_from_the_servers_clock_is_refused(
    s3: S3Server, wall: WallClock, signature_version: str, minutes: float
) -> None:
    client = s3.client(OWNER, signature_version=signature_version)
    wall.offset = minutes * MINUTE
    error = _error(lambda: client.put_object(Bucket=BUCKET, Key="late", Body=b"x"))
    assert error["Code"] == "RequestTimeTooSkewed"
    assert error["MaxAllowedSkewMilliseconds"] == "900000"
    wall.offset = 0.0
    assert "Contents" not in client.list_objects_v2(Bucket=BUCKET)


@pytest.mark.parametrize("signature_version", ["s3v4", "s3"], ids=["v4", "v2"])
@pytest.mark.parametrize("minutes", [14.0, -14.0])
def test_a_request_within_the_window_is_answered(
    s3: S3Server, wall: WallClock, signature_version: str, minutes: float
) -> None:
    client = s3.client(OWNER, signature_version=signature_version)
    wall.offset = minutes * MINUTE
    client.put_object(Bucket=BUCKET, Key="on-time", Body=b"x")
    assert client.get_object(Bucket=BUCKET, Key="on-time")["Body"].read() == b"x"


def test_a_presigned_url_is_judged_by_its_expiry_not_the_window(
    s3: S3Server, wall: WallClock
) -> None:
    client = s3.client(OWNER)
    client.put_object(Bucket=BUCKET, Key="shared", Body=b"x")
    url = client.generate_presigned_url(
        "get_object", Params={"Bucket": BUCKET, "Key": "shared"}, ExpiresIn=3600
    )
    wall.offset = 30 * MINUTE
    assert requests.get(url, timeout=10).content == b"x"
    wall.offset = 61 * MINUTE
    assert b"Request has expired" in requests.get(url, timeout=10).content


@pytest.fixture
def foreign_upload(s3: S3Server) -> str:
    """An unfinished upload of key ``k`` in another store of the same owner."""
    return str(s3.client(OWNER).create_multipart_upload(Bucket=SMALL_BUCKET, Key="k")["UploadId"])


def test_upload_calls_naming_another_stores_upload_answer_no_such_upload(
    s3: S3Server, foreign_upload: str
) -> None:
    owner = s3.client(OWNER)
    owner.put_object(Bucket=BUCKET, Key="src", Body=b"0123456789")
    upload = {"Bucket": BUCKET, "Key": "k", "UploadId": foreign_upload}
    calls: list[Callable[[], Any]] = [
        lambda: owner.upload_part(PartNumber=1, Body=b"abc", **upload),
        lambda: owner.upload_part_copy(
            PartNumber=1, CopySource={"Bucket": BUCKET, "Key": "src"}, **upload
        ),
        lambda: owner.list_parts(**upload),
        lambda: owner.complete_multipart_upload(
            MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": '"x"'}]}, **upload
        ),
        lambda: owner.abort_multipart_upload(**upload),
        lambda: owner.upload_part(
            Bucket=BUCKET, Key="k", UploadId="no-such-upload", PartNumber=1, Body=b"abc"
        ),
    ]
    for action in calls:
        error = _error(action)
        assert error["Code"] == "NoSuchUpload"
    assert (
        owner.list_parts(Bucket=SMALL_BUCKET, Key="k", UploadId=foreign_upload).get("Parts", [])
        == []
    )


def test_an_upload_id_of_another_key_is_not_that_keys_upload(s3: S3Server) -> None:
    owner = s3.client(OWNER)
    upload = owner.create_multipart_upload(Bucket=BUCKET, Key="one")["UploadId"]
    error = _error(
        lambda: owner.upload_part(
            Bucket=BUCKET, Key="two", UploadId=upload, PartNumber=1, Body=b"abc"
        )
    )
    assert error["Code"] == "NoSuchUpload"
    part = owner.upload_part(Bucket=BUCKET, Key="one", UploadId=upload, PartNumber=1, Body=b"abc")
    owner.complete_multipart_upload(
        Bucket=BUCKET,
        Key="one",
        UploadId=upload,
        MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": part["ETag"]}]},
    )
    assert owner.get_object(Bucket=BUCKET, Key="one")["Body"].read() == b"abc"


def _complete_twice(client: Any, bucket: str, key: str) -> list[Any]:
    """Upload ``key`` in two parts, complete it, then complete it again as a client whose first
    answer was lost does (ceph's s3-tests repeat it so): each answer, or the error code."""
    upload = client.create_multipart_upload(Bucket=bucket, Key=key)["UploadId"]
    parts = []
    for number, data in enumerate((b"a" * 5 * 1024**2, b"tail"), start=1):
        sent = client.upload_part(
            Bucket=bucket, Key=key, UploadId=upload, PartNumber=number, Body=data
        )
        parts.append({"PartNumber": number, "ETag": sent["ETag"]})
    answers: list[Any] = []
    for _ in range(2):
        try:
            done = client.complete_multipart_upload(
                Bucket=bucket, Key=key, UploadId=upload, MultipartUpload={"Parts": parts}
            )
        except ClientError as error:
            answers.append(error.response["Error"]["Code"])
        else:
            answers.append((done["ResponseMetadata"]["HTTPStatusCode"], done["Key"], done["ETag"]))
    body = client.get_object(Bucket=bucket, Key=key)["Body"].read()
    answers.append((len(body), body[-4:]))
    return answers


def test_a_repeated_complete_answers_the_same_object_as_moto_does(
    s3: S3Server, direct: Any
) -> None:
    front = _complete_twice(s3.client(OWNER), BUCKET, "twice.bin")
    assert front == _complete_twice(direct, DIRECT_BUCKET, "twice.bin")
    first, again, stored = front
    assert first == again and first[0] == 200
    assert stored == (5 * 1024**2 + 4, b"tail")


def test_a_completed_upload_takes_no_part_nor_abort_nor_a_complete_once_replaced(
    s3: S3Server,
) -> None:
    owner = s3.client(OWNER)
    upload = owner.create_multipart_upload(Bucket=BUCKET, Key="k")["UploadId"]
    part = owner.upload_part(Bucket=BUCKET, Key="k", UploadId=upload, PartNumber=1, Body=b"abc")
    parts = {"Parts": [{"PartNumber": 1, "ETag": part["ETag"]}]}
    owner.complete_multipart_upload(Bucket=BUCKET, Key="k", UploadId=upload, MultipartUpload=parts)
    for action in (
        lambda: owner.upload_part(Bucket=BUCKET, Key="k", UploadId=upload, PartNumber=2, Body=b"x"),
        lambda: owner.abort_multipart_upload(Bucket=BUCKET, Key="k", UploadId=upload),
    ):
        assert _error(action)["Code"] == "NoSuchUpload"
    owner.put_object(Bucket=BUCKET, Key="k", Body=b"newer")
    repeated = {"Bucket": BUCKET, "Key": "k", "UploadId": upload, "MultipartUpload": parts}
    assert _error(lambda: owner.complete_multipart_upload(**repeated))["Code"] == "NoSuchUpload"
    assert owner.get_object(Bucket=BUCKET, Key="k")["Body"].read() == b"newer"
