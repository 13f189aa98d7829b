"""Records scoped to an account and a region, and the table that holds one kind of them:
indexed by scope, by chosen fields and in a listing order that stays stable under change."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar


@dataclass
class Record:
    id: str
    account_id: str
    region: str

    def __setattr__(self, name: str, value: Any) -> None:
        """Set a field; while the record is in a ``RecordTable``, the table notes it as touched,
        and its index (when it indexes the field) and its weight follow, whoever makes the
        change; its kept answers (see ``Store.answer``) and saved form are dropped. Fields hold
        immutable values (tuples, frozensets), so every change is a set."""
        self.__dict__.pop(ANSWER, None)
        self.__dict__.pop(SAVED, None)
        table: RecordTable[Any] | None = self.__dict__.get(_TABLE)
        if table is None:
            object.__setattr__(self, name, value)
            return
        if table.touched is not None:
            table.touched[self.id] = None
        if name not in table.indexed:
            object.__setattr__(self, name, value)
        else:
            table.unindex(self)
            object.__setattr__(self, name, value)
            table.index(self)
        table.reweigh(self)


R = TypeVar("R", bound=Record)


#: Where a record keeps the table that holds it (outside its fields: never saved or compared).
_TABLE = "_altostratus_table"
#: Where a record keeps its encoded answers, with what else they show (``Store.answer``).
ANSWER = "_altostratus_answer"
#: Where a record keeps its form in the state file (``persistence.codec.saved``).
SAVED = "_altostratus_saved"

#: Real seconds a deleted record keeps its place in its scope's listing order, and a paged walk
#: (a page answered that was not the last) counts as going on.
KEEP_PLACE_SECONDS = 600.0
#: Deleted records whose places are kept at most, per scope, beyond the scope's live records.
KEPT_PLACES = 1000


class RecordTable(dict[str, R]):
    """Records by id, also indexed by account and region, so that listing one account's records
    of a region costs what that account holds, not what the whole emulator holds.

    Each scope also keeps its records' order of creation, in which a deleted record keeps its
    place for ``KEEP_PLACE_SECONDS`` (``KEPT_PLACES`` of them at most) while a paged walk of the
    scope goes on (a page that was not the last answered within ``KEEP_PLACE_SECONDS``): the
    pages of a listing are cut from that order, so a record that exists throughout a paged
    listing stays on the same page, and appears exactly once, whatever is created (at the end)
    or deleted meanwhile. With no walk going on, a listing drops the kept places first: its pages
    hold the live records only, as a client reading one page (the official clients' lookups)
    expects, never a first page emptied by earlier deletions.

    The fields named in ``indexed`` are indexed across the whole table (``find``), and kept so
    as records change (see ``Record.__setattr__``); ``weigh``, when given, is summed per account
    (``total``) and counted again at every change. So uniqueness checks, lookups by key and
    quota counts cost the same at any number of records.

    ``touched``, once a state folder sets it to a dict, holds the ids of the records added,
    removed or changed (a field set) since the folder last took it: what a change must save.
    Without a folder it stays None and nothing is noted.
    """

    def __init__(
        self, indexed: tuple[str, ...] = (), weigh: Callable[[R], int] | None = None
    ) -> None:
        super().__init__()
        self.scoped: dict[tuple[str, str], dict[str, R]] = {}
        self.counts: dict[str, int] = {}
        self.indexed = frozenset(indexed)
        self._index: dict[str, dict[Any, dict[str, None]]] = {name: {} for name in indexed}
        self._weigh = weigh
        self._weights: dict[str, int] = {}
        self._totals: dict[str, int] = {}
        self._order: dict[tuple[str, str], list[str]] = {}
        self._deleted: dict[tuple[str, str], dict[str, float]] = {}
        self._walked: dict[tuple[str, str], float] = {}
        self.touched: dict[str, None] | None = None

    def __setitem__(self, record_id: str, record: R) -> None:
        old = self.get(record_id)
        if old is not None:
            self._release(old)
        super().__setitem__(record_id, record)
        if self.touched is not None:
            self.touched[record_id] = None
        scope = (record.account_id, record.region)
        self.scoped.setdefault(scope, {})[record_id] = record
        if old is None:
            self._order.setdefault(scope, []).append(record_id)
            self.counts[record.account_id] = self.counts.get(record.account_id, 0) + 1
        object.__setattr__(record, _TABLE, self)
        self.index(record)
        self.reweigh(record)

    def _release(self, record: R) -> None:
        self.unindex(record)
        weight = self._weights.pop(record.id, 0)
        if weight:
            self._totals[record.account_id] -= weight
        record.__dict__.pop(_TABLE, None)

    def note(self, record_id: str) -> None:
        """Note the record as touched (see ``touched``)."""
        if self.touched is not None:
            self.touched[record_id] = None

    def index(self, record: R) -> None:
        for name in self.indexed:
            self._index[name].setdefault(getattr(record, name), {})[record.id] = None

    def unindex(self, record: R) -> None:
        for name in self.indexed:
            value = getattr(record, name)
            holders = self._index[name].get(value)
            if holders is not None:
                holders.pop(record.id, None)
                if not holders:
                    del self._index[name][value]

    def find(self, name: str, value: Any) -> list[R]:
        """The records whose indexed field ``name`` is ``value``, oldest first."""
        return [self[record_id] for record_id in self._index[name].get(value, ())]

    def reweigh(self, record: R) -> None:
        """Count the record's weight again (after any change of its fields)."""
        if self._weigh is None or record.id not in self:
            return
        weight = self._weigh(record)
        before = self._weights.get(record.id, 0)
        self._weights[record.id] = weight
        self._totals[record.account_id] = self._totals.get(record.account_id, 0) + weight - before

    def total(self, account_id: str) -> int:
        """The sum of ``weigh`` over the account's records."""
        return self._totals.get(account_id, 0)

    def __delitem__(self, record_id: str) -> None:
        record = self[record_id]
        self._release(record)
        super().__delitem__(record_id)
        if self.touched is not None:
            self.touched[record_id] = None
        key = (record.account_id, record.region)
        scope = self.scoped[key]
        del scope[record_id]
        if not scope:
            del self.scoped[key]
        self.counts[record.account_id] -= 1
        deleted = self._deleted.setdefault(key, {})
        deleted[record_id] = time.monotonic()
        if len(deleted) > 2 * KEPT_PLACES:  # forget in batches: O(1) a delete, amortized
            self._forget_places(key, time.monotonic())

    def count(self, account_id: str) -> int:
        """How many records the account holds, in every region."""
        return self.counts.get(account_id, 0)

    def _forget_places(self, key: tuple[str, str], now: float) -> None:
        """Drop the places of records deleted more than ``KEEP_PLACE_SECONDS`` ago, and the
        oldest past ``KEPT_PLACES``. Deletions are kept in the order they happened, so both are
        a prefix; the order is rebuilt only when something is dropped."""
        deleted = self._deleted.get(key)
        if not deleted:
            return
        dropped: set[str] = set()
        for record_id, at in deleted.items():
            if now - at <= KEEP_PLACE_SECONDS and len(deleted) - len(dropped) <= KEPT_PLACES:
                break
            dropped.add(record_id)
        if not dropped:
            return
        self._order[key] = [i for i in self._order.get(key, []) if i not in dropped]
        for record_id in dropped:
            del deleted[record_id]

    def page(self, account_id: str, region: str, number: int, size: int) -> tuple[list[R], int]:
        """Page ``number`` (from 1) of ``size`` places in the scope's order, with the records
        still there, and how many pages the order makes. Deleted records hold places only while
        a walk of the scope's pages goes on; a page that is not the last starts or continues
        one."""
        key = (account_id, region)
        now = time.monotonic()
        walked = self._walked.get(key)
        if walked is None or now - walked > KEEP_PLACE_SECONDS:  # no walk going on
            self._walked.pop(key, None)
            if self._deleted.pop(key, None):
                self._order[key] = list(self.scoped.get(key, {}))
        self._forget_places(key, now)
        order = self._order.get(key, [])
        live = self.scoped.get(key, {})
        chosen = order[(number - 1) * size : number * size]
        pages = max(1, -(-len(order) // size))
        if number < pages:
            self._walked[key] = now
        return [live[i] for i in chosen if i in live], pages

    def in_scope(self, account_id: str, region: str | None) -> list[R]:
        if region is not None:
            return list(self.scoped.get((account_id, region), {}).values())
        return [
            record
            for (account, _), scope in self.scoped.items()
            if account == account_id
            for record in scope.values()
        ]
