"""A store's size limit counts the bytes it actually holds: not what a request claims, and kept
right by a running count across overwrites, deletes, versions, copies, multipart uploads,
concurrent writers and restarts."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

from altostratus.emulator import Emulator
from altostratus.emulator.s3 import store
from tests.support.served_s3 import BUCKET, OWNER, SMALL_BUCKET, SMALL_LIMIT, S3Server

from ..serving.test_server import call
from .test_s3_signing import StreamingSigner, chunked_body, send, signed


def _code(action: Any) -> str:
    with pytest.raises(ClientError) as refused:
        action()
    return str(refused.value.response["Error"]["Code"])


def _counted_right(s3: S3Server, bucket: str) -> int:
    """The running count, checked against a sum of every byte moto holds for the bucket."""
    used = s3.service.usage.used(bucket)
    assert used == store.used_bytes(bucket)
    return used


def test_a_claimed_decoded_length_does_not_shrink_an_upload(s3: S3Server) -> None:
    body = b"x" * (5 * SMALL_LIMIT)
    request = signed(
        s3, "PUT", f"/{SMALL_BUCKET}/big", body, {"X-Amz-Decoded-Content-Length": "10"}
    )
    status, answer = send(request)
    assert status == 403 and b"<Code>QuotaExceeded</Code>" in answer
    assert "Contents" not in s3.client(OWNER).list_objects_v2(Bucket=SMALL_BUCKET)


@pytest.mark.parametrize("claimed", [str(100 * 1024**2), "0", "", "-1"])
def test_a_chunked_upload_must_claim_what_its_chunks_hold(s3: S3Server, claimed: str) -> None:
    headers = {"Content-Encoding": "aws-chunked"}
    if claimed:
        headers["X-Amz-Decoded-Content-Length"] = claimed
    request = signed(s3, "PUT", f"/{BUCKET}/claimed", b"", headers, StreamingSigner)
    status, answer = send(request, body=chunked_body(request, [b"x"], OWNER.secret_access_key))
    assert status == 400 and b"<Code>IncompleteBody</Code>" in answer
    assert "Contents" not in s3.client(OWNER).list_objects_v2(Bucket=BUCKET)
    assert _counted_right(s3, BUCKET) == 0


def test_a_chunked_upload_counts_its_decoded_bytes(s3: S3Server) -> None:
    chunks = [b"a" * 600, b"b" * 400]
    headers = {"Content-Encoding": "aws-chunked", "X-Amz-Decoded-Content-Length": "1000"}
    request = signed(s3, "PUT", f"/{SMALL_BUCKET}/exact", b"", headers, StreamingSigner)
    status, _ = send(request, body=chunked_body(request, chunks, OWNER.secret_access_key))
    assert status == 200  # 1000 bytes fit a 1000-byte store, however the chunks are framed
    assert _counted_right(s3, SMALL_BUCKET) == SMALL_LIMIT


def test_the_count_follows_overwrites_deletes_copies_and_uploads(s3: S3Server) -> None:
    owner = s3.client(OWNER)
    owner.put_object(Bucket=SMALL_BUCKET, Key="a", Body=b"a" * 600)
    owner.put_object(Bucket=SMALL_BUCKET, Key="a", Body=b"a" * 900)  # replaces: frees 600
    assert _counted_right(s3, SMALL_BUCKET) == 900
    assert _code(lambda: owner.put_object(Bucket=SMALL_BUCKET, Key="b", Body=b"b" * 200)) == (
        "QuotaExceeded"
    )
    owner.delete_object(Bucket=SMALL_BUCKET, Key="a")
    assert _counted_right(s3, SMALL_BUCKET) == 0
    owner.put_object(Bucket=SMALL_BUCKET, Key="b", Body=b"b" * 400)
    owner.copy_object(Bucket=SMALL_BUCKET, Key="c", CopySource={"Bucket": SMALL_BUCKET, "Key": "b"})
    assert _counted_right(s3, SMALL_BUCKET) == 800
    assert _code(
        lambda: owner.copy_object(
            Bucket=SMALL_BUCKET, Key="d", CopySource={"Bucket": SMALL_BUCKET, "Key": "b"}
        )
    ) == ("QuotaExceeded")
    owner.delete_objects(Bucket=SMALL_BUCKET, Delete={"Objects": [{"Key": "b"}, {"Key": "c"}]})
    assert _counted_right(s3, SMALL_BUCKET) == 0

    upload = owner.create_multipart_upload(Bucket=SMALL_BUCKET, Key="m")["UploadId"]
    part = {"Bucket": SMALL_BUCKET, "Key": "m", "UploadId": upload}
    owner.upload_part(PartNumber=1, Body=b"1" * 700, **part)
    owner.upload_part(PartNumber=1, Body=b"1" * 400, **part)  # a part sent again replaces it
    assert _counted_right(s3, SMALL_BUCKET) == 400
    assert _code(lambda: owner.upload_part(PartNumber=2, Body=b"2" * 700, **part)) == (
        "QuotaExceeded"
    )
    owner.upload_part(PartNumber=2, Body=b"2" * 500, **part)
    assert _counted_right(s3, SMALL_BUCKET) == 900
    etag = owner.list_parts(**part)["Parts"][0]["ETag"]
    owner.complete_multipart_upload(  # part 2, left out, is dropped
        MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": etag}]}, **part
    )
    assert owner.get_object(Bucket=SMALL_BUCKET, Key="m")["Body"].read() == b"1" * 400
    assert _counted_right(s3, SMALL_BUCKET) == 400
    aborted = owner.create_multipart_upload(Bucket=SMALL_BUCKET, Key="n")["UploadId"]
    owner.upload_part(Bucket=SMALL_BUCKET, Key="n", UploadId=aborted, PartNumber=1, Body=b"9" * 50)
    assert _counted_right(s3, SMALL_BUCKET) == 450
    owner.abort_multipart_upload(Bucket=SMALL_BUCKET, Key="n", UploadId=aborted)
    assert _counted_right(s3, SMALL_BUCKET) == 400


def test_versions_count_until_they_are_deleted(s3: S3Server) -> None:
    owner = s3.client(OWNER)
    owner.put_bucket_versioning(Bucket=SMALL_BUCKET, VersioningConfiguration={"Status": "Enabled"})
    first = owner.put_object(Bucket=SMALL_BUCKET, Key="v", Body=b"1" * 400)["VersionId"]
    owner.put_object(Bucket=SMALL_BUCKET, Key="v", Body=b"2" * 400)
    assert _counted_right(s3, SMALL_BUCKET) == 800
    assert _code(lambda: owner.put_object(Bucket=SMALL_BUCKET, Key="v", Body=b"3" * 400)) == (
        "QuotaExceeded"
    )
    owner.delete_object(Bucket=SMALL_BUCKET, Key="v")  # a delete marker: the versions stay
    assert _counted_right(s3, SMALL_BUCKET) == 800
    owner.delete_object(Bucket=SMALL_BUCKET, Key="v", VersionId=first)
    assert _counted_right(s3, SMALL_BUCKET) == 400
    owner.put_object(Bucket=SMALL_BUCKET, Key="v", Body=b"3" * 400)


def test_concurrent_writers_keep_the_count_right(s3: S3Server) -> None:
    owner = s3.client(OWNER)

    def write(number: int) -> None:
        key = f"k{number % 5}"  # five keys, each written by several threads at once
        owner.put_object(Bucket=BUCKET, Key=key, Body=b"x" * (100 + number))
        if number % 7 == 0:
            owner.delete_object(Bucket=BUCKET, Key=key)
        if number % 3 == 0:
            try:
                owner.copy_object(Bucket=BUCKET, Key=f"copy{number % 4}", CopySource=f"{BUCKET}/k1")
            except ClientError as error:  # another thread deleted k1 just then
                assert error.response["Error"]["Code"] == "NoSuchKey"

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(write, range(120)))
    assert _counted_right(s3, BUCKET) > 0


def test_the_count_survives_a_restart(tmp_path: Path) -> None:
    settings = {"bytes_per_gb": 1000, "state_dir": tmp_path}
    with Emulator(**settings) as first:  # type: ignore[arg-type]
        credential = call(first, "POST", "/v2/objectstore/credentials", {"name": "c"})[1]
        made = call(
            first,
            "POST",
            "/v2/objectstores",
            {"name": "small", "max_size_gb": 1, "access_key_id": credential["access_key_id"]},
        )[1]
        bucket = made["objectstore_endpoint"].rsplit("/", 1)[1]
        _client(first, credential).put_object(Bucket=bucket, Key="k", Body=b"x" * 900)
    with Emulator(**settings) as second:  # type: ignore[arg-type]
        s3 = _client(second, credential)
        assert _code(lambda: s3.put_object(Bucket=bucket, Key="more", Body=b"y" * 200)) == (
            "QuotaExceeded"
        )
        s3.put_object(Bucket=bucket, Key="more", Body=b"y" * 100)
        assert second.s3.usage.used(bucket) == store.used_bytes(bucket) == 1000


def _client(emulator: Emulator, credential: dict[str, Any]) -> Any:
    import boto3
    from botocore.config import Config

    return boto3.client(
        "s3",
        endpoint_url=emulator.s3_url,
        aws_access_key_id=credential["access_key_id"],
        aws_secret_access_key=credential["secret_access_key_id"],
        region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )
