"""The whole state as a seed (see ``seed``): what ``GET /_emulator/state`` answers.

Each record is written as the create call that makes it again (its store's ``seed_entry``), kind
by kind in the order of the table of kinds, with an object store's objects (text, or
``{base64: ...}`` for bytes that are not UTF-8). Left out: the records being removed, the
default networks (each account gets its own again), webhooks' delivery counts, the clock.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from altostratus.emulator.s3 import store as s3_objects
from altostratus.emulator.state.kinds import KINDS
from altostratus.emulator.state.object_stores import ObjectStore

if TYPE_CHECKING:
    from altostratus.emulator.state import State


def export(state: State) -> dict[str, Any]:
    with state.lock:
        accounts: dict[str, dict[str, Any]] = {
            account.id: {
                "name": account.name,
                "api_key": account.api_key,
                "quota": dict(account.limits),
            }
            for account in state.accounts.by_id.values()
        }
        for kind in KINDS:
            store = state.store(kind)
            for record in store.records.values():
                if record.id in store.removals or record.account_id not in accounts:
                    continue
                entry = store.seed_entry(record)
                if entry is None:
                    continue
                if isinstance(record, ObjectStore):
                    entry.update(_objects(record.bucket))
                accounts[record.account_id].setdefault(kind.seed_key, []).append(entry)
    return {"accounts": list(accounts.values())}


def _objects(bucket: str) -> dict[str, Any]:
    objects: dict[str, Any] = {}
    for name, data in sorted(s3_objects.current_objects(bucket).items()):
        try:
            objects[name] = data.decode()
        except UnicodeDecodeError:
            objects[name] = {"base64": base64.b64encode(data).decode("ascii")}
    return {"objects": objects} if objects else {}
