"""A state folder damaged in any shape, its checksums intact, is refused at start with one line
naming what is wrong: never a traceback, never a start that fails on every request later."""

from __future__ import annotations

import hashlib
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from altostratus.emulator import Emulator, StateFileError
from altostratus.emulator.persistence.files import dump_document, load_document

from .test_persistence import _populate, _refused


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("saved")
    with Emulator(state_dir=folder) as emulator:
        _populate(emulator)
    return folder


@pytest.fixture
def folder(saved: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "state"
    shutil.copytree(saved, copy)
    (copy / ".lock").unlink()
    return copy


def _body(folder: Path, change: Callable[[dict[str, Any]], Any]) -> None:
    """Rewrite ``state.json`` with a changed body and a checksum that matches it."""
    body = load_document(folder / "state.json")
    changed = change(body)
    (folder / "state.json").write_bytes(dump_document(body if changed is None else changed))


def _first(body: dict[str, Any], store: str) -> dict[str, Any]:
    fields: dict[str, Any] = body["stores"][store][0]["fields"]
    return fields


def _key_file(folder: Path, record: Any) -> None:
    [key_file] = folder.glob("objects/*/*.key")
    payload = pickle.dumps(record)
    key_file.write_bytes(hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)


def _replace(path: Path, *, with_file: bool) -> None:
    shutil.rmtree(path) if path.is_dir() else path.unlink()
    if with_file:
        path.write_text("not a folder")
    else:
        path.mkdir()


DAMAGES: dict[str, Callable[[Path], Any]] = {
    "body-a-list": lambda f: _body(f, lambda b: [b]),
    "no-stores": lambda f: _body(f, lambda b: b.pop("stores")),
    "store-a-dict": lambda f: _body(f, lambda b: b["stores"].update(networks={})),
    "cidr-a-number": lambda f: _body(f, lambda b: _first(b, "networks").update(cidr=10)),
    "label-a-list": lambda f: _body(f, lambda b: _first(b, "networks").update(label=["x"])),
    "rules-of-strings": lambda f: _body(f, lambda b: _first(b, "firewalls").update(rules=["r"])),
    "fields-a-list": lambda f: _body(f, lambda b: b["stores"]["networks"][0].update(fields=[])),
    "record-of-another-module": lambda f: _body(
        f, lambda b: b["stores"]["networks"][0].update({"@record": "os:system"})
    ),
    "an-account-that-is-a-network": lambda f: _body(
        f, lambda b: b["accounts"].append(b["stores"]["networks"][0])
    ),
    "default-account-unknown": lambda f: _body(f, lambda b: b.update(default_account="nobody")),
    "clock-a-string": lambda f: _body(f, lambda b: b.update(clock="noon")),
    "deliveries-a-number": lambda f: _body(f, lambda b: b.update(deliveries=7)),
    "two-tags": lambda f: _body(f, lambda b: b.update(deliveries={"@dict": [], "@set": []})),
    "removals-a-list": lambda f: _body(f, lambda b: b.update(removals=[1])),
    "state-a-folder": lambda f: _replace(f / "state.json", with_file=False),
    "objects-a-file": lambda f: _replace(f / "objects", with_file=True),
    "journal-a-file": lambda f: _replace(f / "journal", with_file=True),
    "bucket-a-file": lambda f: _replace(next((f / "objects").iterdir()), with_file=True),
    "key-file-a-list": lambda f: _key_file(f, ["k"]),
    "key-file-without-versions": lambda f: _key_file(f, {"name": "k"}),
    "key-file-of-strings": lambda f: _key_file(f, {"name": "k", "versions": ["bytes"]}),
    "versioning-a-number": lambda f: next(f.glob("objects/*/bucket.json")).write_text(
        '{"versioning": 42}'
    ),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_folder_is_refused_in_one_line(folder: Path, damage: str) -> None:
    DAMAGES[damage](folder)
    with pytest.raises(StateFileError) as refused:
        Emulator(state_dir=folder)
    message = str(refused.value)
    assert len(message.splitlines()) == 1, message
    assert str(folder) in message and "move the state folder away" in message


@pytest.mark.parametrize("damage", ["cidr-a-number", "key-file-of-strings"])
def test_the_command_says_it_in_one_line(folder: Path, damage: str) -> None:
    DAMAGES[damage](folder)
    assert "does not start on it" in _refused(folder)


def test_the_undamaged_copy_starts(folder: Path) -> None:
    with Emulator(state_dir=folder) as emulator:
        labels = {network.label for network in emulator.state.networks.records.values()}
        assert "kept" in labels
