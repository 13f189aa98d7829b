"""S3 objects under ``--state-dir`` with many writers at once: every upload that was answered
is on disk before its answer, whole, and comes back after a graceful restart and after ``kill
-9`` in the middle of the writing; no writer is answered a 500. And a write that could not be
saved is not answered as a success."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import BotoCoreError, ClientError

from altostratus.emulator import Emulator
from altostratus.emulator.persistence import objects

from ..serving.test_server import call
from .test_persistence import Process, _s3, processes  # noqa: F401 (a fixture)

THREADS = 8
PUTS = 40
IN_FLIGHT = None
"""A key whose request was in flight when the emulator was killed, unanswered: the service may
have applied it or not (S3 promises nothing of an unanswered write), so either is right."""


def _store(emulator: Emulator) -> tuple[str, dict[str, Any]]:
    status, credential = call(emulator, "POST", "/v2/objectstore/credentials", {"name": "c"})
    assert status == 200
    store = call(
        emulator,
        "POST",
        "/v2/objectstores",
        {"name": "busy", "access_key_id": credential["access_key_id"]},
    )[1]
    return store["objectstore_endpoint"].rsplit("/", 1)[1], credential


def _body(thread: int, number: int, round_: int = 0) -> bytes:
    return f"{thread}/{number}/{round_}:".encode() * (1 + number % 7)


def _writer(
    s3: Any,
    bucket: str,
    thread: int,
    acknowledged: dict[str, bytes | None],
    stop: threading.Event,
) -> list[str]:
    """PUTs (each key written twice, the second time with other bytes), then deletes of a few;
    the answered ones are recorded. Answers other than success, or a dropped connection once
    ``stop`` is set, are returned."""
    failures = []
    for number in range(PUTS):
        key = f"t{thread}/k{number % (PUTS // 2)}"
        body = _body(thread, number, number // (PUTS // 2))
        try:
            s3.put_object(Bucket=bucket, Key=key, Body=body)
        except ClientError as error:
            failures.append(f"{key}: {error.response['Error']['Code']}")
            continue
        except BotoCoreError:  # the emulator was killed under this request
            if stop.is_set():
                acknowledged[key] = IN_FLIGHT
                return failures
            raise
        acknowledged[key] = body
        if number % 9 == 8:
            try:
                s3.delete_object(Bucket=bucket, Key=key)
            except ClientError as error:
                failures.append(f"delete {key}: {error.response['Error']['Code']}")
                continue
            except BotoCoreError:
                if stop.is_set():
                    acknowledged[key] = IN_FLIGHT
                    return failures
                raise
            acknowledged[key] = b""  # gone: answered
    return failures


def _write_at_once(emulator: Emulator, bucket: str, credential: dict[str, Any]) -> dict[str, bytes]:
    acknowledged: dict[str, bytes | None] = {}
    stop = threading.Event()
    with ThreadPoolExecutor(THREADS) as pool:
        results = [
            pool.submit(_writer, _s3(emulator, credential), bucket, n, acknowledged, stop)
            for n in range(THREADS)
        ]
        failures = [failure for result in results for failure in result.result()]
    assert failures == []
    assert IN_FLIGHT not in acknowledged.values()  # nothing was killed
    return {key: body for key, body in acknowledged.items() if body is not None}


def _check(
    emulator: Emulator, bucket: str, credential: dict[str, Any], kept: Mapping[str, bytes | None]
) -> None:
    s3 = _s3(emulator, credential)
    listed = {
        item["Key"]
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket)
        for item in page.get("Contents", [])
    }
    missing = [key for key, body in kept.items() if body and key not in listed]
    assert missing == []
    assert [key for key, body in kept.items() if body == b"" and key in listed] == []
    for key, body in kept.items():
        if body:
            assert s3.get_object(Bucket=bucket, Key=key)["Body"].read() == body, key


def test_every_answered_upload_survives_a_graceful_restart(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path) as first:
        bucket, credential = _store(first)
        acknowledged = _write_at_once(first, bucket, credential)
        _check(first, bucket, credential, acknowledged)
    assert len(acknowledged) == THREADS * PUTS // 2
    with Emulator(state_dir=tmp_path) as second:
        _check(second, bucket, credential, acknowledged)
        assert second.s3.usage.used(bucket) == sum(map(len, acknowledged.values()))


@pytest.mark.slow
@pytest.mark.parametrize("rounds", [3])
def test_every_answered_upload_survives_kill_9_in_the_middle(
    tmp_path: Path,
    processes: list[Process],  # noqa: F811
    rounds: int,
) -> None:
    processes.append(Process(tmp_path))
    bucket, credential = _store(processes[-1].emulator)
    acknowledged: dict[str, bytes | None] = {}
    for round_ in range(rounds):
        emulator = processes[-1].emulator
        stop = threading.Event()
        answered: dict[str, bytes | None] = {}
        with ThreadPoolExecutor(THREADS) as pool:
            results = [
                pool.submit(
                    _writer, _s3(emulator, credential), bucket, round_ * THREADS + n, answered, stop
                )
                for n in range(THREADS)
            ]
            while len(answered) < THREADS * 6 and not all(r.done() for r in results):
                threading.Event().wait(0.01)  # no timing asserted: waits for answers to count
            stop.set()
            processes[-1].kill()
            failures = [failure for result in results for failure in result.result()]
        assert failures == []
        acknowledged |= answered
        processes.append(Process(tmp_path))
        _check(processes[-1].emulator, bucket, credential, acknowledged)


def test_an_upload_that_could_not_be_saved_is_not_answered_success(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Emulator(state_dir=tmp_path) as emulator:
        bucket, credential = _store(emulator)
        s3 = _s3(emulator, credential)
        s3.put_object(Bucket=bucket, Key="saved", Body=b"kept")

        def full_disk(path: Path, data: bytes) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(objects, "write_atomic", full_disk)
        with pytest.raises(ClientError) as refused:
            s3.put_object(Bucket=bucket, Key="lost", Body=b"never acknowledged")
        assert refused.value.response["Error"]["Code"] == "InternalError"
        assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500
        monkeypatch.undo()
    with Emulator(state_dir=tmp_path) as again:
        s3 = _s3(again, credential)
        assert s3.get_object(Bucket=bucket, Key="saved")["Body"].read() == b"kept"


PART = 5 * 1024 * 1024
"""S3's least size for a part that is not the last."""


def _part(s3: Any, bucket: str, upload_id: str, number: int, body: bytes) -> dict[str, Any]:
    answer = s3.upload_part(
        Bucket=bucket, Key="big.bin", UploadId=upload_id, PartNumber=number, Body=body
    )
    return {"PartNumber": number, "ETag": answer["ETag"]}


def _pending(s3: Any, bucket: str) -> dict[str, list[int]]:
    """Each unfinished upload's id with the numbers of its parts."""
    uploads = s3.list_multipart_uploads(Bucket=bucket).get("Uploads", [])
    return {
        upload["UploadId"]: [
            part["PartNumber"]
            for part in s3.list_parts(
                Bucket=bucket, Key=upload["Key"], UploadId=upload["UploadId"]
            ).get("Parts", [])
        ]
        for upload in uploads
    }


def _restarted(tmp_path: Path, processes: list[Process], crash: bool) -> Emulator:  # noqa: F811
    """The folder's emulator again, after a graceful stop or a kill -9."""
    if crash:
        processes[-1].kill()
    else:
        processes[-1].process.terminate()
        processes[-1].process.wait(timeout=30)
    processes.append(Process(tmp_path))
    return processes[-1].emulator


@pytest.mark.parametrize("crash", [False, True], ids=["stop", "kill-9"])
def test_an_unfinished_multipart_upload_and_its_parts_survive_a_restart(
    tmp_path: Path,
    processes: list[Process],  # noqa: F811
    crash: bool,
) -> None:
    """Each answered part is kept: after a restart the upload is listed with its parts, takes
    more, and completes into the object its parts make, with what it was started with."""
    processes.append(Process(tmp_path))
    bucket, credential = _store(processes[-1].emulator)
    s3 = _s3(processes[-1].emulator, credential)
    upload_id = s3.create_multipart_upload(
        Bucket=bucket, Key="big.bin", ContentType="application/x-tar", Metadata={"made-by": "ci"}
    )["UploadId"]
    first, second = b"a" * PART, b"b" * PART
    parts = [_part(s3, bucket, upload_id, 1, first), _part(s3, bucket, upload_id, 2, b"lost")]
    parts[1] = _part(s3, bucket, upload_id, 2, second)  # a part sent again replaces the first
    aborted = s3.create_multipart_upload(Bucket=bucket, Key="other")["UploadId"]
    s3.abort_multipart_upload(Bucket=bucket, Key="other", UploadId=aborted)

    again = _restarted(tmp_path, processes, crash)
    s3 = _s3(again, credential)
    assert _pending(s3, bucket) == {upload_id: [1, 2]}
    parts.append(_part(s3, bucket, upload_id, 3, b"end"))
    s3.complete_multipart_upload(
        Bucket=bucket, Key="big.bin", UploadId=upload_id, MultipartUpload={"Parts": parts}
    )
    got = s3.get_object(Bucket=bucket, Key="big.bin")
    assert got["Body"].read() == first + second + b"end"
    assert got["ContentType"] == "application/x-tar"
    assert got["Metadata"] == {"made-by": "ci"}

    last = _restarted(tmp_path, processes, crash)
    s3 = _s3(last, credential)
    assert _pending(s3, bucket) == {}
    assert s3.head_object(Bucket=bucket, Key="big.bin")["ContentLength"] == 2 * PART + 3


def test_a_started_upload_is_kept_before_it_is_answered(tmp_path: Path) -> None:
    """The upload's id is answered only once its start is on disk: with no part sent yet, it is
    there after a restart, and its parts count against the store's size as before."""
    with Emulator(state_dir=tmp_path) as first:
        bucket, credential = _store(first)
        s3 = _s3(first, credential)
        empty = s3.create_multipart_upload(Bucket=bucket, Key="big.bin")["UploadId"]
        held = s3.create_multipart_upload(Bucket=bucket, Key="big.bin")["UploadId"]
        _part(s3, bucket, held, 1, b"x" * 1000)
        used = first.s3.usage.used(bucket)
    assert used == 1000
    with Emulator(state_dir=tmp_path) as second:
        s3 = _s3(second, credential)
        assert _pending(s3, bucket) == {empty: [], held: [1]}
        assert second.s3.usage.used(bucket) == used


def test_bytes_a_crash_left_unnamed_are_dropped_and_a_damaged_part_refused(
    tmp_path: Path,
) -> None:
    """Bytes written for a write whose rows a crash never committed (and a temporary file of a
    write cut short) are removed at the next start. A part whose bytes are damaged is refused in
    one line naming them."""
    from altostratus.emulator.persistence import StateFileError

    with Emulator(state_dir=tmp_path) as first:
        bucket, credential = _store(first)
        s3 = _s3(first, credential)
        kept = s3.create_multipart_upload(Bucket=bucket, Key="big.bin")["UploadId"]
        _part(s3, bucket, kept, 1, b"kept")
        empty = s3.create_multipart_upload(Bucket=bucket, Key="big.bin")["UploadId"]
    folder = tmp_path / "bytes"
    part = folder / hashlib.sha256(b"kept").hexdigest()
    assert part.read_bytes() == b"kept"
    unnamed = folder / hashlib.sha256(b"never committed").hexdigest()
    unnamed.write_bytes(b"never committed")
    (folder / f".{unnamed.name}.tmp").write_bytes(b"never")
    with Emulator(state_dir=tmp_path) as second:
        assert _pending(_s3(second, credential), bucket) == {kept: [1], empty: []}
    assert sorted(folder.iterdir()) == [part]
    part.write_bytes(b"kepT")
    with pytest.raises(StateFileError) as refused:
        Emulator(state_dir=tmp_path)
    assert str(part) in str(refused.value)
    assert "damaged" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_versions_delete_markers_and_a_multipart_object_come_back_the_same(
    tmp_path: Path,
) -> None:
    """Each stored version's id, ETag, size, last modified, content type and metadata, the delete
    markers, and a completed multipart object's ETag and part count, as before the restart."""
    with Emulator(state_dir=tmp_path) as first:
        bucket, credential = _store(first)
        s3 = _s3(first, credential)
        s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
        s3.put_object(Bucket=bucket, Key="v", Body=b"one", ContentType="text/plain")
        s3.put_object(Bucket=bucket, Key="v", Body=b"two", Metadata={"n": "2"})
        s3.delete_object(Bucket=bucket, Key="v")
        upload_id = s3.create_multipart_upload(Bucket=bucket, Key="big.bin")["UploadId"]
        parts = [
            _part(s3, bucket, upload_id, 1, b"a" * PART),
            _part(s3, bucket, upload_id, 2, b"z"),
        ]
        s3.complete_multipart_upload(
            Bucket=bucket, Key="big.bin", UploadId=upload_id, MultipartUpload={"Parts": parts}
        )
        versions = s3.list_object_versions(Bucket=bucket)
        head = s3.head_object(Bucket=bucket, Key="big.bin", PartNumber=1)
    with Emulator(state_dir=tmp_path) as second:
        s3 = _s3(second, credential)
        again = s3.list_object_versions(Bucket=bucket)
        for field in ("Versions", "DeleteMarkers"):
            assert again[field] == versions[field], field
        etag = f'"{hashlib.md5(b"one").hexdigest()}"'
        (one,) = [v for v in again["Versions"] if v["Key"] == "v" and v["ETag"] == etag]
        got = s3.get_object(Bucket=bucket, Key="v", VersionId=one["VersionId"])
        assert (got["Body"].read(), got["ContentType"]) == (b"one", "text/plain")
        (two,) = [v for v in again["Versions"] if v["Key"] == "v" and v != one]
        assert s3.head_object(Bucket=bucket, Key="v", VersionId=two["VersionId"])["Metadata"] == {
            "n": "2"
        }
        assert s3.get_object(Bucket=bucket, Key="big.bin")["Body"].read() == b"a" * PART + b"z"
        assert (
            s3.head_object(Bucket=bucket, Key="big.bin", PartNumber=1)["PartsCount"]
            == head["PartsCount"]
            == 2
        )
