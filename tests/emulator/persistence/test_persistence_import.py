"""``--state-dir`` and a replacement of the whole state (``PUT /_emulator/state``, a reset): kept
all or nothing, whatever moment a crash (``kill -9``) stops it at."""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from altostratus.emulator import Emulator
from altostratus.emulator.persistence import objects

from .test_persistence import Process, processes  # noqa: F401 (a fixture)


def _state(tag: str, networks: int, webhooks: int) -> dict[str, Any]:
    key = f"AK{tag.upper():0<18}"
    return {
        "accounts": [
            {
                "name": "default",
                "quota": {"network_count": networks + 5},
                "networks": [
                    {"id": f"{tag}-net-{n}", "label": f"{tag}{n}"} for n in range(networks)
                ],
                "object_store_credentials": [
                    {
                        "id": f"{tag}-cred",
                        "name": tag,
                        "access_key_id": key,
                        "secret_access_key_id": "s" * 40,
                    },
                ],
                "object_stores": [
                    {
                        "id": f"{tag}-store",
                        "name": f"{tag}-files",
                        "access_key_id": key,
                        "objects": {"kept.txt": f"{tag} bytes", f"{tag}.bin": {"base64": "AAEC"}},
                    },
                ],
                "webhooks": [
                    {
                        "id": f"{tag}-hook-{n}",
                        "url": f"http://127.0.0.1:9/{tag}{n}",
                        "events": ["network.created"],
                        "secret": f"{tag}-secret-{n}",
                    }
                    for n in range(webhooks)
                ],
            },
            {"name": f"team-{tag}", "api_key": f"{tag}-key"},
        ]
    }


OLD = _state("old", networks=6, webhooks=2)
NEW = _state("new", networks=9, webhooks=4)


def _exported(folder: Path) -> dict[str, Any]:
    with Emulator(state_dir=folder) as emulator:
        return emulator.export_state()


class _Committing:
    """A state database's connection that calls ``around`` before and after each commit."""

    def __init__(self, connection: Any, around: Callable[[], None]) -> None:
        self._connection = connection
        self._around = around

    def execute(self, statement: str, *arguments: Any) -> Any:
        if statement != "COMMIT":
            return self._connection.execute(statement, *arguments)
        self._around()
        try:
            return self._connection.execute(statement)
        finally:
            self._around()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


@pytest.fixture
def crash_copies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[Emulator], list[Path]]]:
    """Arms copies of an emulator's folder before and after every commit of its database and
    every file it writes or removes: each is what a ``kill -9`` at that moment leaves."""
    copies: list[Path] = []

    def arm(emulator: Emulator) -> list[Path]:
        folder = emulator.folder
        assert folder is not None

        def copy() -> None:
            target = tmp_path / f"crash-{len(copies):04d}"
            shutil.copytree(folder.path, target, ignore=shutil.ignore_patterns(".lock"))
            copies.append(target)

        def around(call: Callable[..., Any]) -> Callable[..., Any]:
            def wrapped(*args: Any, **kwargs: Any) -> Any:
                copy()
                try:
                    return call(*args, **kwargs)
                finally:
                    copy()

            return wrapped

        for name in ("write_atomic", "remove"):
            monkeypatch.setattr(objects, name, around(getattr(objects, name)))
        monkeypatch.setattr(folder, "_connection", _Committing(folder._connection, copy))
        return copies

    yield arm


def test_a_state_import_is_kept_whole_or_not_at_all_at_every_step(
    tmp_path: Path, crash_copies: Callable[[Emulator], list[Path]]
) -> None:
    live = tmp_path / "live"
    with Emulator(state_dir=live) as emulator:
        emulator.load_state(OLD)
        old = emulator.export_state()
    with Emulator(state_dir=live) as emulator:
        copies = crash_copies(emulator)
        emulator.load_state(NEW)
        new = emulator.export_state()
        copied = list(copies)
    assert old != new and len(copied) > 4
    seen = [_exported(folder) for folder in copied]
    assert all(state in (old, new) for state in seen), [
        folder.name for folder, state in zip(copied, seen, strict=True) if state not in (old, new)
    ]
    assert seen[0] == old and seen[-1] == new
    assert _exported(live) == new


def test_a_reset_is_kept_whole_or_not_at_all_at_every_step(
    tmp_path: Path, crash_copies: Callable[[Emulator], list[Path]]
) -> None:
    live = tmp_path / "live"
    with Emulator(state_dir=live) as emulator:
        emulator.load_state(OLD)
        old = emulator.export_state()
        copies = crash_copies(emulator)
        emulator.reset()
        empty = emulator.export_state()
        copied = list(copies)
    assert all(_exported(folder) in (old, empty) for folder in copied)
    assert _exported(copied[-1]) == empty


def _load_in_background(emulator: Emulator, seed: dict[str, Any]) -> threading.Thread:
    def load() -> None:
        with contextlib.suppress(OSError):  # killed under it (a URLError is an OSError)
            emulator.load_state(seed)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    return thread


@pytest.mark.slow
def test_kill_9_during_state_imports_leaves_the_old_state_or_the_new_one(
    tmp_path: Path,
    processes: list[Process],  # noqa: F811
) -> None:
    """Imports killed at moments spread over an import's length, round after round: each
    restart serves one whole state, the old one or the new one, never a mixture."""
    big_old = _state("old", networks=150, webhooks=40)
    big_new = _state("new", networks=220, webhooks=60)
    processes.append(Process(tmp_path))
    emulator = processes[-1].emulator
    started = time.monotonic()
    emulator.load_state(big_new)
    length = time.monotonic() - started  # how long one import takes here: where to kill
    new = emulator.export_state()
    emulator.load_state(big_old)
    old = emulator.export_state()
    rounds = 12
    for round_ in range(rounds):
        current = processes[-1].emulator.export_state()
        thread = _load_in_background(processes[-1].emulator, big_new if current == old else big_old)
        threading.Event().wait(length * round_ / (rounds - 1))  # no timing asserted
        processes[-1].kill()
        thread.join(30)
        processes.append(Process(tmp_path))
        after = processes[-1].emulator.export_state()
        networks = len(after["accounts"][0].get("networks", []))
        assert after in (old, new), f"round {round_}: a mixture of two states ({networks} networks)"
