"""State folders saved by released formats, checked in under ``saved_folders/``: every later
version must load them, with the same answers. ``format-4`` was written by this release (the
state database with the write-ahead log a ``kill -9`` left, and the bytes beside it): the
``format-3`` folder converted, and one object written since; ``format-3`` by the release before
(every kind, two accounts, a journal a crash left, versioned objects with a delete marker, an
unfinished multipart upload); ``format-2`` by the one before (records by module path)."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.config import Config

from altostratus.client import Client
from altostratus.emulator import Emulator

SAVED = Path(__file__).parent / "saved_folders"
KEY = "saved-folder-key"
ACCESS_KEY = "AKSAVEDFOLDER0000000"
SECRET_KEY = "savedFolderSecret00000000000000000000000"


def _copy(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(SAVED / name, folder)
    return folder


def _check_records(emulator: Emulator) -> Client:
    assert emulator.api_key == KEY
    client = Client(api_key=KEY, api_url=emulator.api_url)
    networks = {n.label: n for n in client.networks.list() if not n.default}
    assert sorted(networks) == ["journalled", "kept"]
    assert networks["kept"].cidr == "10.9.0.0/24"
    (firewall,) = client.firewalls.list()
    assert (firewall.name, firewall.rules_count) == ("fw", 4)  # the default rules and one
    (balancer,) = client.load_balancers.list()
    assert (balancer.name, balancer.firewall_id) == ("lb", firewall.id)
    (reserved,) = client.reserved_ips.list()
    assigned = client.reserved_ips.get(reserved.id).assigned_to
    assert assigned is not None and assigned.id == balancer.id
    (credential,) = client.object_store_credentials.list(region="LON1")
    assert credential.access_key_id == ACCESS_KEY
    (hook,) = client.webhooks.list()
    assert (hook.url, hook.secret) == ("http://127.0.0.1:9/hook", "hook-secret")
    assert [a["name"] for a in emulator.accounts()] == ["default", "second"]
    return client


def _s3(emulator: Emulator) -> Any:
    return boto3.client(
        "s3",
        endpoint_url=emulator.s3_url,
        aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=SECRET_KEY,
        region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )


def _check_objects(emulator: Emulator, client: Client) -> Any:
    (store,) = client.object_stores.list(region="LON1")
    bucket = str(store.objectstore_endpoint).rsplit("/", 1)[1]
    s3 = _s3(emulator)
    got = s3.get_object(Bucket=bucket, Key="dir/a.txt")
    assert got["Body"].read() == b"kept bytes"
    assert (got["ContentType"], got["Metadata"]) == ("text/plain", {"build_id": "8"})
    versions = s3.list_object_versions(Bucket=bucket)
    assert sorted(v["Size"] for v in versions["Versions"] if v["Key"] == "dir/a.txt") == [5, 10]
    assert [m["Key"] for m in versions["DeleteMarkers"]] == ["gone.txt"]
    (upload,) = s3.list_multipart_uploads(Bucket=bucket)["Uploads"]
    parts = s3.list_parts(Bucket=bucket, Key="big.bin", UploadId=upload["UploadId"])["Parts"]
    assert [(p["PartNumber"], p["Size"]) for p in parts] == [(1, 1000)]
    return s3, bucket


def _format_4(folder: Path) -> None:
    """The folder is in this release's format, and names no module and holds no earlier file."""
    assert {p.name for p in folder.iterdir()} - {".lock", "bytes"} == {"state.db"}
    for path in folder.rglob("*"):
        if path.is_file():
            assert b'"altostratus.' not in path.read_bytes(), path
    with contextlib.closing(sqlite3.connect(folder / "state.db")) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (4,)


def test_a_folder_saved_in_format_4_loads_with_the_same_answers(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "format-4")
    assert (folder / "state.db-wal").stat().st_size > 0  # what a crash left: committed, kept
    with Emulator(state_dir=folder) as emulator:
        s3, bucket = _check_objects(emulator, _check_records(emulator))
        got = s3.get_object(Bucket=bucket, Key="written-in-4.txt")
        assert (got["Body"].read(), got["ContentType"]) == (b"format 4", "text/plain")
    _format_4(folder)


def test_a_folder_saved_in_format_3_is_converted_with_the_same_answers(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "format-3")
    with Emulator(state_dir=folder) as emulator:
        _check_objects(emulator, _check_records(emulator))
    _format_4(folder)
    with Emulator(state_dir=folder) as emulator:
        _check_objects(emulator, _check_records(emulator))


def test_a_folder_of_format_2_is_converted_through_format_3(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "format-2")
    assert '"altostratus.emulator.state.networks:Network"' in (folder / "state.json").read_text()
    with Emulator(state_dir=folder) as emulator:
        _check_records(emulator)
    _format_4(folder)
    with Emulator(state_dir=folder) as emulator:
        _check_records(emulator)


@pytest.mark.parametrize("moment", ["before-the-rename", "after-the-rename"])
def test_a_crash_during_a_conversion_leaves_one_or_the_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    """Killed before the new database takes its name, the earlier files are all there (and the
    unfinished database is dropped); after, the database is whole, and the earlier files left
    are removed at the next start."""
    import os

    folder = _copy(tmp_path, "format-3")
    real_replace = os.replace

    def crash(source: str, target: str) -> None:
        if Path(target).name == "state.db" and moment == "before-the-rename":
            raise KeyboardInterrupt  # the process stops here
        real_replace(source, target)
        if Path(target).name == "state.db":
            raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        Emulator(state_dir=folder)
    monkeypatch.undo()
    names = {p.name for p in folder.iterdir()}
    assert {"state.json", "journal", "objects"} <= names
    assert ("state.db" in names) == (moment == "after-the-rename")
    with Emulator(state_dir=folder) as emulator:
        _check_objects(emulator, _check_records(emulator))
    _format_4(folder)


@pytest.mark.parametrize("name", ["format-2", "format-3"])
def test_a_saved_folder_of_a_later_version_is_refused_in_one_line(
    tmp_path: Path, name: str
) -> None:
    folder = _copy(tmp_path, name)
    state = folder / "state.json"
    state.write_text(state.read_text().replace('"version": ', '"version": 1', 1))
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    with pytest.raises(Exception, match=r"state format 1\d, and this version") as refused:
        Emulator(state_dir=folder)
    assert str(state) in str(refused.value) and "\n" not in str(refused.value)
    assert "reads 1 to 4" in str(refused.value)
    assert state.read_text().count('"version": 1') == 1  # nothing overwritten
    assert sorted(p.relative_to(folder) for p in folder.rglob("*") if p.name != ".lock") == before


def test_a_damaged_file_of_format_3_is_refused_and_nothing_converted(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "format-3")
    data = sorted((folder / "objects").glob("*/*.bin"))[-1]
    data.unlink()
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    with pytest.raises(Exception, match="is missing") as refused:
        Emulator(state_dir=folder)
    assert str(data) in str(refused.value) and "\n" not in str(refused.value)
    assert sorted(p.relative_to(folder) for p in folder.rglob("*") if p.name != ".lock") == before
