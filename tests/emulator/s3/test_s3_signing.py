"""Signature V4 details the S3 front checks beyond what boto3's everyday calls exercise."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from tests.support.served_s3 import BUCKET, OWNER, S3Server, WallClock

EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()


class StreamingSigner(S3SigV4Auth):  # type: ignore[misc]
    def payload(self, request: AWSRequest) -> str:
        return "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"


def signed(
    s3: S3Server,
    method: str,
    path: str,
    body: bytes,
    headers: dict[str, str],
    signer: type[S3SigV4Auth] = S3SigV4Auth,
) -> AWSRequest:
    request = AWSRequest(method=method, url=s3.url + path, data=body, headers=headers)
    credentials = Credentials(OWNER.access_key_id, OWNER.secret_access_key)
    signer(credentials, "s3", "us-east-1").add_auth(request)
    return request


def send(request: AWSRequest, body: bytes | None = None) -> tuple[int, bytes]:
    parts = urlsplit(request.url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=10)
    try:
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        payload = request.body if body is None else body
        connection.request(request.method, target, body=payload, headers=dict(request.headers))
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def chunked_body(request: AWSRequest, chunks: list[bytes], secret: str) -> bytes:
    """Encode ``chunks`` as aws-chunked, each signed as the AWS documentation describes."""
    amz_date = request.headers["X-Amz-Date"]
    scope = f"{amz_date[:8]}/us-east-1/s3/aws4_request"
    key = ("AWS4" + secret).encode()
    for part in (amz_date[:8], "us-east-1", "s3", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    previous = request.headers["Authorization"].rsplit("Signature=", 1)[1]
    out = b""
    for data in [*chunks, b""]:
        to_sign = "\n".join(
            [
                "AWS4-HMAC-SHA256-PAYLOAD",
                amz_date,
                scope,
                previous,
                EMPTY_SHA256,
                hashlib.sha256(data).hexdigest(),
            ]
        )
        previous = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
        out += f"{len(data):x};chunk-signature={previous}\r\n".encode() + data + b"\r\n"
    return out


def streaming_put(s3: S3Server, key: str, chunks: list[bytes]) -> AWSRequest:
    headers = {
        "Content-Encoding": "aws-chunked",
        "X-Amz-Decoded-Content-Length": str(sum(map(len, chunks))),
    }
    return signed(s3, "PUT", f"/{BUCKET}/{key}", b"", headers, StreamingSigner)


def test_a_presigned_url_expires_by_wall_time(s3: S3Server, wall: WallClock) -> None:
    owner = s3.client(OWNER)
    owner.put_object(Bucket=BUCKET, Key="k", Body=b"v")
    url = owner.generate_presigned_url(
        "get_object", Params={"Bucket": BUCKET, "Key": "k"}, ExpiresIn=60
    )
    wall.offset = 120.0
    with pytest.raises(urllib.error.HTTPError) as excinfo:
        urllib.request.urlopen(url)
    assert excinfo.value.code == 403
    assert b"Request has expired" in excinfo.value.read()


def test_a_body_that_does_not_match_its_signed_hash_is_refused(s3: S3Server) -> None:
    request = signed(s3, "PUT", f"/{BUCKET}/k", b"original", {})
    status, body = send(request, body=b"tampered")
    assert status == 400
    assert b"<Code>XAmzContentSHA256Mismatch</Code>" in body


def test_an_unsigned_request_is_refused(s3: S3Server) -> None:
    with pytest.raises(urllib.error.HTTPError) as excinfo:
        urllib.request.urlopen(f"{s3.url}/{BUCKET}/k")
    assert excinfo.value.code == 403
    document = excinfo.value.read()
    assert b"<Code>AccessDenied</Code>" in document
    assert b"<Resource>/photos-abc123/k</Resource>" in document
    assert b"<RequestId>" in document


def test_a_streaming_signed_upload_is_stored_decoded(s3: S3Server) -> None:
    chunks = [b"a" * 70000, b"b" * 1234]
    request = streaming_put(s3, "streamed", chunks)
    status, answer = send(request, body=chunked_body(request, chunks, OWNER.secret_access_key))
    assert status == 200, answer
    got = s3.client(OWNER).get_object(Bucket=BUCKET, Key="streamed")["Body"].read()
    assert got == b"".join(chunks)


def test_a_streaming_upload_with_a_forged_chunk_is_refused(s3: S3Server) -> None:
    request = streaming_put(s3, "streamed", [b"a" * 100])
    body = chunked_body(request, [b"a" * 100], OWNER.secret_access_key).replace(b"aaa", b"abc", 1)
    status, answer = send(request, body=body)
    assert status == 403
    assert b"<Code>SignatureDoesNotMatch</Code>" in answer


def test_a_signature_that_is_not_ascii_is_refused_not_a_server_error(s3: S3Server) -> None:
    request = signed(s3, "GET", f"/{BUCKET}/k", b"", {})
    authorization = request.headers["Authorization"].rsplit("Signature=", 1)[0]
    request.headers.replace_header("Authorization", authorization + "Signature=\xe9")
    status, answer = send(request)
    assert (status, b"<Code>SignatureDoesNotMatch</Code>" in answer) == (403, True)

    url = s3.client(OWNER).generate_presigned_url(
        "get_object", Params={"Bucket": BUCKET, "Key": "k"}, ExpiresIn=60
    )
    tampered = url.split("X-Amz-Signature=")[0] + "X-Amz-Signature=%C3%A9"
    with pytest.raises(urllib.error.HTTPError) as excinfo:
        urllib.request.urlopen(tampered)
    assert excinfo.value.code == 403
    assert b"<Code>SignatureDoesNotMatch</Code>" in excinfo.value.read()

    chunks = [b"a" * 10]
    streamed = streaming_put(s3, "streamed", chunks)
    body = chunked_body(streamed, chunks, OWNER.secret_access_key)
    forged = body.split(b"chunk-signature=", 1)
    forged[1] = b"\xe9" + forged[1][1:]
    status, answer = send(streamed, body=b"chunk-signature=".join(forged))
    assert (status, b"<Code>SignatureDoesNotMatch</Code>" in answer) == (403, True)
