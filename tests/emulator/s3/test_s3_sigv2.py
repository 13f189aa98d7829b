"""Signature Version 2 on the S3 front: boto3's default presigned URLs and its ``s3`` signer."""

from __future__ import annotations

import base64
import hashlib
import http.client
import re
import time
from email.utils import formatdate
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from botocore.auth import HmacV1Auth, S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.exceptions import ClientError

from altostratus.emulator.s3 import S3Key
from altostratus.emulator.s3.sigv2 import sign
from tests.support.served_s3 import (
    BUCKET,
    FOREIGN_BUCKET,
    OWNER,
    SIBLING,
    SMALL_BUCKET,
    SMALL_LIMIT,
    STRANGER,
    S3Server,
    WallClock,
)


def send(
    method: str, url: str, headers: dict[str, str] | None = None, body: bytes = b""
) -> tuple[int, bytes, http.client.HTTPMessage]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=10)
    try:
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request(method, target, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.read(), answer.headers
    finally:
        connection.close()


def presign(s3: S3Server, key: S3Key, operation: str, expires: int = 300, **params: Any) -> str:
    url = s3.default_client(key).generate_presigned_url(operation, Params=params, ExpiresIn=expires)
    assert "AWSAccessKeyId=" in url and "X-Amz-" not in url  # boto3's default is Signature V2
    return str(url)


def code(document: bytes) -> str:
    found = re.search(rb"<Code>([^<]*)</Code>", document)
    return found.group(1).decode() if found else ""


def client_error(excinfo: pytest.ExceptionInfo[ClientError]) -> tuple[int, str]:
    response = excinfo.value.response
    return int(response["ResponseMetadata"]["HTTPStatusCode"]), str(response["Error"]["Code"])


def test_boto3s_default_presigned_get_url_works(s3: S3Server) -> None:
    key = "docs/a b+c~é.txt"
    s3.client(OWNER).put_object(Bucket=BUCKET, Key=key, Body=b"hello")
    status, body, _ = send("GET", presign(s3, OWNER, "get_object", Bucket=BUCKET, Key=key))
    assert (status, body) == (200, b"hello")


def test_a_presigned_get_with_response_overrides_signs_them_as_sub_resources(
    s3: S3Server,
) -> None:
    s3.client(OWNER).put_object(Bucket=BUCKET, Key="report.csv", Body=b"a,b")
    url = presign(
        s3,
        OWNER,
        "get_object",
        Bucket=BUCKET,
        Key="report.csv",
        ResponseContentDisposition="attachment; filename=r.csv",
        ResponseContentType="text/csv",
    )
    status, body, headers = send("GET", url)
    assert (status, body) == (200, b"a,b")
    assert headers["Content-Disposition"] == "attachment; filename=r.csv"
    assert headers["Content-Type"] == "text/csv"


def test_a_presigned_put_signs_its_content_type_and_metadata(s3: S3Server) -> None:
    url = presign(
        s3,
        OWNER,
        "put_object",
        Bucket=BUCKET,
        Key="up.txt",
        ContentType="text/plain",
        Metadata={"my_key": "blue"},
    )
    signed = {"Content-Type": "text/plain", "x-amz-meta-my_key": "blue"}
    status, body, _ = send("PUT", url, signed, b"uploaded")
    assert status == 200, body
    got = s3.client(OWNER).get_object(Bucket=BUCKET, Key="up.txt")
    assert got["Body"].read() == b"uploaded"
    assert got["ContentType"] == "text/plain"
    assert got["Metadata"] == {"my_key": "blue"}

    status, body, _ = send("PUT", url, {**signed, "Content-Type": "image/png"}, b"other")
    assert (status, code(body)) == (403, "SignatureDoesNotMatch")


def test_header_signed_v2_put_get_list_copy_and_delete(s3: S3Server) -> None:
    v2 = s3.client(OWNER, signature_version="s3")
    v2.put_object(
        Bucket=BUCKET, Key="a/b c.txt", Body=b"hello", ContentType="text/plain", Metadata={"k": "v"}
    )
    got = v2.get_object(Bucket=BUCKET, Key="a/b c.txt")
    assert (got["Body"].read(), got["ContentType"], got["Metadata"]) == (
        b"hello",
        "text/plain",
        {"k": "v"},
    )
    v2.copy_object(Bucket=BUCKET, Key="a/copy", CopySource={"Bucket": BUCKET, "Key": "a/b c.txt"})
    listed = v2.list_objects_v2(Bucket=BUCKET, Prefix="a/")
    assert [item["Key"] for item in listed["Contents"]] == ["a/b c.txt", "a/copy"]
    assert [bucket["Name"] for bucket in v2.list_buckets()["Buckets"]] == sorted(
        name for name, bucket in s3.directory.buckets.items() if bucket.account_id == "account-a"
    )

    v2.put_object_tagging(
        Bucket=BUCKET, Key="a/copy", Tagging={"TagSet": [{"Key": "t", "Value": "1"}]}
    )
    assert v2.get_object_tagging(Bucket=BUCKET, Key="a/copy")["TagSet"] == [
        {"Key": "t", "Value": "1"}
    ]
    v2.delete_objects(Bucket=BUCKET, Delete={"Objects": [{"Key": "a/copy"}]})
    v2.delete_object(Bucket=BUCKET, Key="a/b c.txt")
    assert "Contents" not in v2.list_objects_v2(Bucket=BUCKET, Prefix="a/")


def test_header_signed_v2_multipart_upload(s3: S3Server) -> None:
    v2 = s3.client(OWNER, signature_version="s3")
    first, last = b"a" * (5 * 1024**2), b"b" * 1000
    upload = v2.create_multipart_upload(Bucket=BUCKET, Key="big.bin")
    parts = []
    for number, data in enumerate((first, last), start=1):
        answer = v2.upload_part(
            Bucket=BUCKET, Key="big.bin", UploadId=upload["UploadId"], PartNumber=number, Body=data
        )
        parts.append({"ETag": answer["ETag"], "PartNumber": number})
    v2.complete_multipart_upload(
        Bucket=BUCKET,
        Key="big.bin",
        UploadId=upload["UploadId"],
        MultipartUpload={"Parts": parts},
    )
    assert v2.get_object(Bucket=BUCKET, Key="big.bin")["Body"].read() == first + last


@pytest.mark.parametrize("signer", [SIBLING, STRANGER], ids=["same-account", "other-account"])
def test_v2_signers_who_do_not_own_the_store_are_refused(s3: S3Server, signer: S3Key) -> None:
    s3.client(OWNER).put_object(Bucket=BUCKET, Key="k", Body=b"v")
    with pytest.raises(ClientError) as excinfo:
        s3.client(signer, signature_version="s3").get_object(Bucket=BUCKET, Key="k")
    assert client_error(excinfo) == (403, "AccessDenied")
    status, body, _ = send("GET", presign(s3, signer, "get_object", Bucket=BUCKET, Key="k"))
    assert (status, code(body)) == (403, "AccessDenied")


def test_a_v2_owner_cannot_reach_another_accounts_store(s3: S3Server) -> None:
    status, body, _ = send("GET", presign(s3, OWNER, "get_object", Bucket=FOREIGN_BUCKET, Key="k"))
    assert (status, code(body)) == (403, "AccessDenied")


def test_an_unknown_v2_key_is_refused(s3: S3Server) -> None:
    unknown = S3Key("AKIAUNKNOWN000000009", "x" * 40, "account-a")
    with pytest.raises(ClientError) as excinfo:
        s3.client(unknown, signature_version="s3").list_objects_v2(Bucket=BUCKET)
    assert client_error(excinfo) == (403, "InvalidAccessKeyId")


def test_a_wrong_secret_is_refused_with_signature_does_not_match(s3: S3Server) -> None:
    wrong = s3.client(OWNER, secret="w" * 40, signature_version="s3")
    with pytest.raises(ClientError) as excinfo:
        wrong.put_object(Bucket=BUCKET, Key="k", Body=b"v")
    assert client_error(excinfo) == (403, "SignatureDoesNotMatch")


@pytest.mark.parametrize(
    ("old", "new"),
    [("Signature=", "Signature=AA"), ("/k?", "/other?"), ("Expires=", "Expires=1")],
    ids=["signature", "key", "expiry"],
)
def test_a_tampered_presigned_url_is_refused(s3: S3Server, old: str, new: str) -> None:
    s3.client(OWNER).put_object(Bucket=BUCKET, Key="k", Body=b"v")
    s3.client(OWNER).put_object(Bucket=BUCKET, Key="other", Body=b"v")
    url = presign(s3, OWNER, "get_object", Bucket=BUCKET, Key="k")
    assert send("GET", url)[0] == 200
    status, body, headers = send("GET", url.replace(old, new, 1))
    assert (status, code(body)) == (403, "SignatureDoesNotMatch")
    assert headers["Content-Type"] == "application/xml"
    assert b"<StringToSign>GET\n\n\n" in body


def test_an_expired_presigned_url_is_refused(s3: S3Server, wall: WallClock) -> None:
    s3.client(OWNER).put_object(Bucket=BUCKET, Key="k", Body=b"v")
    url = presign(s3, OWNER, "get_object", expires=60, Bucket=BUCKET, Key="k")
    assert send("GET", url)[0] == 200
    wall.offset = 120.0
    status, body, _ = send("GET", url)
    assert (status, code(body)) == (403, "AccessDenied")
    assert b"<Message>Request has expired</Message>" in body
    assert b"<ServerTime>" in body


@pytest.mark.parametrize(
    ("operation", "bucket"), [("delete_bucket", BUCKET), ("create_bucket", "made-by-url")]
)
def test_a_presigned_url_cannot_make_or_remove_a_bucket(
    s3: S3Server, operation: str, bucket: str
) -> None:
    url = presign(s3, OWNER, operation, Bucket=bucket)
    status, body, _ = send("DELETE" if operation == "delete_bucket" else "PUT", url)
    assert (status, code(body)) == (403, "AccessDenied")
    assert s3.client(OWNER).list_objects_v2(Bucket=BUCKET)["KeyCount"] == 0


def test_x_amz_date_is_accepted_signed_as_s3_documents_and_as_botocore_signs(
    s3: S3Server,
) -> None:
    s3.client(OWNER).put_object(Bucket=BUCKET, Key="k", Body=b"v")
    url = f"{s3.url}/{BUCKET}/k"
    amz_date = formatdate(usegmt=True)
    documented = sign(OWNER.secret_access_key, f"GET\n\n\n\nx-amz-date:{amz_date}\n/{BUCKET}/k")
    headers = {"x-amz-date": amz_date, "Authorization": f"AWS {OWNER.access_key_id}:{documented}"}
    assert send("GET", url, headers)[:2] == (200, b"v")

    request = AWSRequest(method="GET", url=url, headers={"x-amz-date": amz_date})
    HmacV1Auth(Credentials(OWNER.access_key_id, OWNER.secret_access_key)).add_auth(request)
    assert "Date" in request.headers
    assert send("GET", url, dict(request.headers))[:2] == (200, b"v")


def test_a_presigned_url_is_checked_against_its_expires_as_spelt(s3: S3Server) -> None:
    s3.client(OWNER).put_object(Bucket=BUCKET, Key="k", Body=b"v")
    expires = f"0{int(time.time()) + 300}"
    signature = sign(OWNER.secret_access_key, f"GET\n\n\n{expires}\n/{BUCKET}/k")
    query = urlencode(
        {"AWSAccessKeyId": OWNER.access_key_id, "Signature": signature, "Expires": expires}
    )
    assert send("GET", f"{s3.url}/{BUCKET}/k?{query}")[:2] == (200, b"v")


def test_malformed_v2_requests_are_refused_with_s3s_errors(s3: S3Server) -> None:
    url = f"{s3.url}/{BUCKET}/k"
    date = formatdate(usegmt=True)
    status, body, _ = send("GET", url, {"Authorization": "AWS no-colon", "Date": date})
    assert (status, code(body)) == (400, "InvalidArgument")

    undated = sign(OWNER.secret_access_key, f"GET\n\n\n\n/{BUCKET}/k")
    status, body, _ = send("GET", url, {"Authorization": f"AWS {OWNER.access_key_id}:{undated}"})
    assert (status, code(body)) == (403, "AccessDenied")
    assert b"Date or x-amz-date" in body

    presigned = presign(s3, OWNER, "get_object", Bucket=BUCKET, Key="k")
    status, body, _ = send("GET", re.sub(r"&Expires=\d+", "", presigned))
    assert (status, code(body)) == (403, "AccessDenied")
    status, body, _ = send("GET", re.sub(r"Expires=\d+", "Expires=soon", presigned))
    assert (status, code(body)) == (403, "AccessDenied")
    assert b"seconds since epoch" in body


def md5_of(data: bytes) -> str:
    return base64.b64encode(hashlib.md5(data, usedforsecurity=False).digest()).decode()


@pytest.mark.parametrize(
    ("digest", "refusal"),
    [(md5_of(b"another body"), "BadDigest"), ("bm90LWFuLW1kNQ==", "InvalidDigest")],
    ids=["another-body", "not-an-md5"],
)
def test_a_v2_upload_is_checked_against_its_content_md5(
    s3: S3Server, digest: str, refusal: str
) -> None:
    url = f"{s3.url}/{BUCKET}/k"
    for sent, expected in ((md5_of(b"stored"), (200, "")), (digest, (400, refusal))):
        request = AWSRequest(method="PUT", url=url, data=b"stored", headers={"Content-MD5": sent})
        HmacV1Auth(Credentials(OWNER.access_key_id, OWNER.secret_access_key)).add_auth(request)
        status, body, _ = send("PUT", url, dict(request.headers), b"stored")
        assert (status, code(body)) == expected


@pytest.mark.parametrize("signature_version", ["s3", "s3v4"])
def test_a_form_upload_is_refused_so_no_upload_escapes_the_size_limit(
    s3: S3Server, signature_version: str
) -> None:
    boundary = "form-boundary"
    form = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\nbig.bin\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + b"x" * (SMALL_LIMIT * 5)
        + f"\r\n--{boundary}--\r\n".encode()
    )
    url = f"{s3.url}/{SMALL_BUCKET}"
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    request = AWSRequest(method="POST", url=url, data=form, headers=headers)
    credentials = Credentials(OWNER.access_key_id, OWNER.secret_access_key)
    if signature_version == "s3":
        HmacV1Auth(credentials).add_auth(request)
    else:
        S3SigV4Auth(credentials, "s3", "us-east-1").add_auth(request)
    status, body, _ = send("POST", url, dict(request.headers), form)
    assert (status, code(body)) == (501, "NotImplemented")
    assert s3.client(OWNER).list_objects_v2(Bucket=SMALL_BUCKET)["KeyCount"] == 0
