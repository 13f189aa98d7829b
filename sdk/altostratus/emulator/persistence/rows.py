"""The rows of ``state.db`` a captured state is written as: the whole state, or one change
(see the package's docstring for the schema). Shared by the state folder and the conversion of
earlier formats (``upgrade``)."""

from __future__ import annotations

import sqlite3
from typing import Any

from altostratus.emulator.persistence.files import dump
from altostratus.emulator.state.kinds import KINDS

BYTES = "bytes"
"""The folder of the objects' bytes, each file named by the SHA-256 of its content."""
KIND_NAMES = {kind.attribute: kind.name for kind in KINDS}
"""Each store's attribute on the state, and the kind name its records are saved under."""
SINGLETONS = ("accounts", "default_account", "deliveries", "clock")
"""The values saved whole, one row each."""


def write_whole(db: sqlite3.Connection, body: dict[str, Any]) -> None:
    """Replace every record, address and singleton with those of a captured body."""
    for table in ("records", "public_addresses", "singletons"):
        db.execute(f"DELETE FROM {table}")
    removals = body.get("removals", {})
    for attribute, records in body["stores"].items():
        removing = removals.get(attribute, {})
        db.executemany(
            "INSERT INTO records VALUES (?, ?, ?, ?)",
            (
                (KIND_NAMES[attribute], i, removing.get(i), dump(record))
                for record in records
                for i in [record["fields"]["id"]]
            ),
        )
    db.executemany(
        "INSERT INTO public_addresses VALUES (?)", ((a,) for a in body["public_addresses"])
    )
    db.executemany("INSERT INTO singletons VALUES (?, ?)", ((n, dump(body[n])) for n in SINGLETONS))


def write_change(db: sqlite3.Connection, change: dict[str, Any]) -> None:
    for attribute, entries in change["records"].items():
        kind = KIND_NAMES[attribute]
        for record_id, record, removal in entries:
            if record is None:
                db.execute("DELETE FROM records WHERE kind = ? AND id = ?", (kind, record_id))
            else:
                db.execute(  # a record keeps its place (its rowid): the stores' order
                    "INSERT INTO records VALUES (?, ?, ?, ?) ON CONFLICT (kind, id) "
                    "DO UPDATE SET removal = excluded.removal, body = excluded.body",
                    (kind, record_id, removal, dump(record)),
                )
    for address, held in change["public_addresses"]:
        db.execute(
            "INSERT OR IGNORE INTO public_addresses VALUES (?)"
            if held
            else "DELETE FROM public_addresses WHERE address = ?",
            (address,),
        )
    db.executemany(
        "INSERT OR REPLACE INTO singletons VALUES (?, ?)",
        ((n, dump(change[n])) for n in SINGLETONS if n in change),
    )
