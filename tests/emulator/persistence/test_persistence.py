"""``--state-dir``: everything kept across restarts and ``kill -9``, S3 objects included; a
damaged or incompatible state refused at start, never reset."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.config import Config

from altostratus.emulator import Emulator, StateFileError

from ..serving.test_server import call

LISTINGS = (
    "/v2/vpc/networks",
    "/v2/vpc/firewalls",
    "/v2/vpc/ips",
    "/v2/vpc/loadbalancers",
    "/v2/objectstores",
    "/v2/objectstore/credentials",
    "/v2/webhooks",
)


def _s3(emulator: Emulator, credential: dict[str, Any]) -> Any:
    return boto3.client(
        "s3",
        endpoint_url=emulator.s3_url,
        aws_access_key_id=credential["access_key_id"],
        aws_secret_access_key=credential["secret_access_key_id"],
        region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )


def _populate(emulator: Emulator) -> dict[str, Any]:
    """One of everything, a second account, an S3 object and an advanced clock."""

    def ok(method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        status, answer = call(emulator, method, path, body)
        assert status == 200, (path, answer)
        return answer

    ok("POST", "/v2/webhooks", {"url": "http://127.0.0.1:9/hook", "events": ["*"], "secret": "s"})
    network = ok("POST", "/v2/vpc/networks", {"label": "kept", "cidr_v4": "10.9.0.0/24"})
    firewall = ok("POST", "/v2/vpc/firewalls", {"name": "fw", "network_id": network["id"]})
    rule = {"protocol": "tcp", "start_port": "22", "end_port": "22", "cidr": ["10.0.0.0/8"]}
    ok("POST", f"/v2/vpc/firewalls/{firewall['id']}/rules", rule)
    ok("POST", "/v2/vpc/ips", {"name": "ip"})
    backends = [{"ip": "10.9.0.5", "protocol": "TCP", "source_port": 80, "target_port": 8080}]
    ok(
        "POST",
        "/v2/vpc/loadbalancers",
        {"name": "lb", "network_id": network["id"], "backends": backends},
    )
    credential = ok("POST", "/v2/objectstore/credentials", {"name": "c", "region": "LON1"})
    store = ok(
        "POST",
        "/v2/objectstores",
        {"name": "files", "region": "LON1", "access_key_id": credential["access_key_id"]},
    )
    ok("POST", "/_emulator/accounts", {"name": "second"})
    ok("POST", "/_emulator/clock", {"advance_seconds": 3600})
    bucket = store["objectstore_endpoint"].rsplit("/", 1)[1]
    _s3(emulator, credential).put_object(
        Bucket=bucket, Key="dir/a.txt", Body=b"kept bytes", Metadata={"build_id": "7"}
    )
    return {"bucket": bucket, "credential": credential}


def _listed(emulator: Emulator, path: str) -> list[Any]:
    answer = call(emulator, "GET", path + "?per_page=100")[1]
    return list(answer["items"] if isinstance(answer, dict) else answer)


def _everything(emulator: Emulator) -> dict[str, Any]:
    seen: dict[str, Any] = {path: _listed(emulator, path) for path in LISTINGS}
    seen["accounts"] = call(emulator, "GET", "/_emulator/accounts")[1]
    return seen


def test_a_restart_keeps_everything(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path) as first:
        made = _populate(first)
        assert first.dispatcher.wait_idle(10)  # every due delivery has failed and been counted
        before = _everything(first)
        clock_before = call(first, "GET", "/_emulator/clock")[1]["now"]
        failures = before["/v2/webhooks"][0]["failures"]
        assert failures >= 1
    with Emulator(state_dir=tmp_path) as second:
        after = _everything(second)
        for path in LISTINGS:
            if path in ("/v2/objectstores", "/v2/vpc/loadbalancers"):
                continue  # their addresses name the new ports
            assert after[path] == before[path], path
        assert after["accounts"] == before["accounts"]
        assert _listed(second, "/v2/webhooks")[0]["failures"] == failures
        assert call(second, "GET", "/_emulator/clock")[1]["now"] >= clock_before
        stores = _listed(second, "/v2/objectstores")
        assert [s["name"] for s in stores] == [s["name"] for s in before["/v2/objectstores"]]
        got = _s3(second, made["credential"]).get_object(Bucket=made["bucket"], Key="dir/a.txt")
        assert (got["Body"].read(), got["Metadata"]) == (b"kept bytes", {"build_id": "7"})


def test_without_a_state_dir_nothing_is_kept(tmp_path: Path) -> None:
    with Emulator() as first:
        call(first, "POST", "/v2/vpc/networks", {"label": "gone"})
        assert first.folder is None
    with Emulator() as second:
        assert [n["label"] for n in call(second, "GET", "/v2/vpc/networks")[1]] == ["Default"]


class Process:
    def __init__(self, state_dir: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "altostratus.emulator", "--port", "0", "--s3-port", "0",
             "--state-dir", str(state_dir), "--quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        shown = dict(
            line.split(":", 1) for line in (self.process.stdout.readline() for _ in range(4))
        )
        self.emulator = Emulator.__new__(Emulator)
        self.emulator.api_url = shown["API"].strip()
        self.emulator.s3_url = shown["S3"].strip()
        self.emulator.api_key = shown["API key"].strip()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


@pytest.fixture
def processes() -> Iterator[list[Process]]:
    started: list[Process] = []
    yield started
    for process in started:
        if process.process.poll() is None:
            process.kill()


def test_kill_9_between_changes_loses_nothing_answered(
    tmp_path: Path, processes: list[Process]
) -> None:
    processes.append(Process(tmp_path))
    emulator = processes[-1].emulator
    made = _populate(emulator)
    for number in range(5):
        call(emulator, "POST", "/v2/vpc/networks", {"label": f"n{number}"})
    before = _everything(emulator)
    processes[-1].kill()
    processes.append(Process(tmp_path))
    after = _everything(processes[-1].emulator)
    assert [n["label"] for n in after["/v2/vpc/networks"]] == [
        n["label"] for n in before["/v2/vpc/networks"]
    ]
    assert after["/v2/vpc/firewalls"] == before["/v2/vpc/firewalls"]
    assert after["accounts"] == before["accounts"]
    s3 = _s3(processes[-1].emulator, made["credential"])
    assert s3.get_object(Bucket=made["bucket"], Key="dir/a.txt")["Body"].read() == b"kept bytes"
    s3.delete_object(Bucket=made["bucket"], Key="dir/a.txt")
    processes[-1].kill()
    processes.append(Process(tmp_path))
    s3 = _s3(processes[-1].emulator, made["credential"])
    assert s3.list_objects_v2(Bucket=made["bucket"]).get("KeyCount") == 0


def _refused(state_dir: Path) -> str:
    with pytest.raises(StateFileError) as refused:
        Emulator(state_dir=state_dir)
    answer = subprocess.run(
        [sys.executable, "-m", "altostratus", "emulator", "--port", "0", "--s3-port", "0",
         "--state-dir", str(state_dir)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    err = answer.stderr.strip()
    assert answer.returncode == 1 and len(err.splitlines()) == 1, err
    assert str(refused.value) in err
    return err


def _saved(tmp_path: Path) -> Path:
    with Emulator(state_dir=tmp_path) as emulator:
        _populate(emulator)
    return tmp_path / "state.db"


def _rows(database: Path, query: str) -> list[Any]:
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        return db.execute(query).fetchall()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "foreign", "record"])
def test_a_damaged_or_foreign_database_is_refused_not_reset(tmp_path: Path, damage: str) -> None:
    database = _saved(tmp_path)
    data = database.read_bytes()
    if damage == "garbage":
        database.write_bytes(b"not a database, nor anything else " * 200)
    elif damage == "truncated":
        database.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        database.write_bytes(b"")
    elif damage == "foreign":
        database.unlink()
        with contextlib.closing(sqlite3.connect(database)) as db:
            db.execute("CREATE TABLE records (id TEXT)")
    else:
        with contextlib.closing(sqlite3.connect(database)) as db, db:
            db.execute("""UPDATE records SET body = replace(body, '"label":"kept"', '"label":7')""")
    damaged = database.read_bytes()
    refused = _refused(tmp_path)
    assert str(database) in refused and "move the state folder away" in refused
    expected = {
        "foreign": "is not an emulator state database",
        "empty": "is not an emulator state database",
        "record": "Network.label holds 7",
    }
    assert expected.get(damage, "is damaged") in refused
    assert database.read_bytes() == damaged  # left for the user to inspect
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lock", "bytes", "state.db"]


def test_a_state_database_of_another_version_is_refused(tmp_path: Path) -> None:
    database = _saved(tmp_path)
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.execute("PRAGMA user_version = 99")
    refused = _refused(tmp_path)
    assert str(database) in refused and "state format 99" in refused
    assert _rows(database, "PRAGMA user_version") == [(99,)]


def test_a_damaged_or_missing_bytes_file_is_refused(tmp_path: Path) -> None:
    _saved(tmp_path)
    digest = hashlib.sha256(b"kept bytes").hexdigest()
    data_file = tmp_path / "bytes" / digest
    data_file.write_bytes(b"kept bytez")
    refused = _refused(tmp_path)
    assert str(data_file) in refused and "checksum does not match" in refused
    data_file.unlink()
    refused = _refused(tmp_path)
    assert str(data_file) in refused and "is missing (the bytes of 'dir/a.txt')" in refused
    data_file.write_bytes(b"kept bytes")
    with Emulator(state_dir=tmp_path):
        pass


def test_an_object_is_a_row_of_plain_values_and_its_bytes_apart(tmp_path: Path) -> None:
    """No module path, no serialized Python object: a head of plain values (key, version,
    ETag, content type, metadata, last modified, owner) and the bytes, named by their SHA-256."""
    database = _saved(tmp_path)
    ((key, version_id, text, digest),) = _rows(
        database, "SELECT key, version_id, head, sha256 FROM objects"
    )
    assert (tmp_path / "bytes" / digest).read_bytes() == b"kept bytes"
    assert digest == hashlib.sha256(b"kept bytes").hexdigest()
    head = json.loads(text)
    assert key == "dir/a.txt" and version_id == head["version_id"]
    assert head["etag"] == hashlib.md5(b"kept bytes").hexdigest()
    assert head["metadata"]["x-amz-meta-build_id"] == "7"
    assert head["metadata"]["content-type"] == "binary/octet-stream"
    assert {"last_modified", "owner", "version_id"} <= set(head)
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert b"altostratus." not in path.read_bytes(), path
            assert b"moto" not in path.read_bytes(), path


def test_an_object_file_of_the_earlier_format_is_refused_never_loaded(tmp_path: Path) -> None:
    """The earlier format's object files were serialized Python objects behind a SHA-256:
    whoever could write the folder could run code in the next emulator. Such a file is refused
    in one line saying what to do, nothing in it runs, and the folder is left as it was."""
    folder = tmp_path / "saved"
    shutil.copytree(Path(__file__).parent / "saved_folders" / "format-3", folder)
    key_file = sorted((folder / "objects").glob("*/*.key"))[0]
    ran = tmp_path / "ran"

    class Payload:
        def __reduce__(self) -> tuple[Any, ...]:
            return (os.system, (f"touch {ran}",))

    payload = pickle.dumps({"name": "dir/a.txt", "versions": [Payload()]})
    key_file.write_bytes(hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    refused = _refused(folder)
    assert str(key_file) in refused and "an object file of an earlier format" in refused
    assert "GET /_emulator/state" in refused
    assert not ran.exists()
    assert sorted(p.relative_to(folder) for p in folder.rglob("*") if p.name != ".lock") == before


def test_one_emulator_at_a_time_per_folder(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path), pytest.raises(StateFileError, match="in use"):
        Emulator(state_dir=tmp_path)


def test_a_crash_while_writing_leaves_the_last_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change whose transaction fails half way is not answered, and nothing of it is kept."""
    from altostratus.emulator import persistence

    with Emulator(state_dir=tmp_path) as emulator:
        call(emulator, "POST", "/v2/vpc/networks", {"label": "saved"})
        written = persistence.write_change

        def crash(db: sqlite3.Connection, change: dict[str, Any]) -> None:
            written(db, change)  # the rows written, then the disk fails before the commit
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(persistence, "write_change", crash)
        status, answer = call(emulator, "POST", "/v2/vpc/networks", {"label": "lost"})
        assert status == 500 and "could not save" in answer["reason"]
        labels = [
            json.loads(b)["fields"]["label"]
            for (b,) in _rows(
                tmp_path / "state.db", "SELECT body FROM records WHERE kind = 'network'"
            )
        ]
        assert "saved" in labels and "lost" not in labels
        monkeypatch.undo()
