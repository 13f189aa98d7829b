"""Object keys are bytes: whatever a key holds (any Unicode, ``%``, ``?``, ``#``, ``+``, spaces,
slashes, dots), boto3 through the front stores, lists and reads it exactly as moto served
directly does, decoded once and never twice."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.served_s3 import BUCKET, DIRECT_BUCKET, OWNER, S3Server

#: Characters S3 clients and servers most often get wrong, drawn often.
TRICKY = "%?#+ /.=&;:@$!*'()[]~\\\"<>A1ü€😀"

KEYS = st.one_of(
    st.text(alphabet=TRICKY, min_size=1, max_size=24),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=40),
    st.sampled_from(["c%ab", "d%2Fe", "f%41g", "q?versionId=x", "report?v=1", "a%41", "aA"]),
).filter(lambda key: len(key.encode()) <= 1024)


def _emptied(client: Any, bucket: str) -> None:
    for item in client.list_objects_v2(Bucket=bucket).get("Contents", []):
        client.delete_object(Bucket=bucket, Key=item["Key"])


def _stored(client: Any, bucket: str) -> dict[str, bytes]:
    keys = [item["Key"] for item in client.list_objects_v2(Bucket=bucket).get("Contents", [])]
    return {key: client.get_object(Bucket=bucket, Key=key)["Body"].read() for key in keys}


def _put(client: Any, bucket: str, key: str, body: bytes) -> str:
    """``ok``, or the error code the put was answered."""
    try:
        client.put_object(Bucket=bucket, Key=key, Body=body)
    except ClientError as error:
        return str(error.response["Error"]["Code"])
    return "ok"


@pytest.mark.slow
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(keys=st.lists(KEYS, min_size=1, max_size=6))
def test_keys_are_stored_listed_and_read_as_moto_does(
    s3: S3Server, direct: Any, keys: list[str]
) -> None:
    front = s3.client(OWNER)
    _emptied(front, BUCKET)
    _emptied(direct, DIRECT_BUCKET)
    for number, key in enumerate(keys):
        body = f"{number}:{key}".encode()
        assert _put(front, BUCKET, key, body) == _put(direct, DIRECT_BUCKET, key, body), key
    assert _stored(front, BUCKET) == _stored(direct, DIRECT_BUCKET)


@pytest.mark.parametrize(
    ("first", "second"),
    [("report?v=1", "report?v=2"), ("a%41", "aA"), ("d%2Fe", "d/e"), ("c%ab", "c%25ab")],
)
def test_keys_that_decode_alike_twice_stay_two_objects(
    s3: S3Server, first: str, second: str
) -> None:
    owner = s3.client(OWNER)
    owner.put_object(Bucket=BUCKET, Key=first, Body=b"first")
    owner.put_object(Bucket=BUCKET, Key=second, Body=b"second")
    assert _stored(owner, BUCKET) == {first: b"first", second: b"second"}


def test_a_path_that_is_not_utf8_is_refused(s3: S3Server) -> None:
    """A raw ``%ab`` in a path decodes to no text: S3 cannot name a key with it."""
    import urllib.error
    import urllib.request

    from botocore.auth import S3SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    request = AWSRequest(method="PUT", url=f"{s3.url}/{BUCKET}/c%ab", data=b"x")
    S3SigV4Auth(
        Credentials(OWNER.access_key_id, OWNER.secret_access_key), "s3", "us-east-1"
    ).add_auth(request)
    prepared = request.prepare()
    sent = urllib.request.Request(
        prepared.url, data=b"x", headers=dict(prepared.headers), method="PUT"
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(sent, timeout=10)
    assert refused.value.code == 400 and b"<Code>InvalidURI</Code>" in refused.value.read()
    assert "Contents" not in s3.client(OWNER).list_objects_v2(Bucket=BUCKET)
