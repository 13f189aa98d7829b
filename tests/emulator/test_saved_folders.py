"""State folders saved by released formats, checked in under ``saved_folders/``: every later
version must load them, with the same answers. ``format-3`` was written by this release (every
kind, two accounts, a journal a crash left, versioned objects with a delete marker, an
unfinished multipart upload); ``format-2`` by the release before (records by module path)."""

from __future__ import annotations

import shutil
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


def test_a_folder_saved_in_format_3_loads_with_the_same_answers(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "format-3")
    with Emulator(state_dir=folder) as emulator:
        client = _check_records(emulator)
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


def test_a_folder_of_format_2_is_read_and_written_again_in_format_3(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "format-2")
    assert '"altostratus.emulator.state.networks:Network"' in (folder / "state.json").read_text()
    with Emulator(state_dir=folder) as emulator:
        _check_records(emulator)
    for path in folder.rglob("*.json"):
        assert '"altostratus.' not in path.read_text(), path  # no module path left
        assert '"version": 3' in path.read_text()
    with Emulator(state_dir=folder) as emulator:
        _check_records(emulator)


@pytest.mark.parametrize("name", ["format-2", "format-3"])
def test_a_saved_folder_of_a_later_version_is_refused_in_one_line(
    tmp_path: Path, name: str
) -> None:
    folder = _copy(tmp_path, name)
    state = folder / "state.json"
    state.write_text(state.read_text().replace('"version": ', '"version": 1', 1))
    with pytest.raises(Exception, match=r"state format 1\d, and this version") as refused:
        Emulator(state_dir=folder)
    assert str(state) in str(refused.value) and "\n" not in str(refused.value)
    assert state.read_text().count('"version": 1') == 1  # nothing overwritten
