"""What every resource store shares: records scoped to an account and a region, lookups that
answer 404 for anything outside that scope, and the side effects a change queues."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from altostratus.emulator.errors import being_deleted, duplicate_name, not_found

if TYPE_CHECKING:
    from altostratus.emulator.state import State

REGION_PLACES = {
    "LON1": ("London 1", "GB"),
    "FRA1": ("Frankfurt 1", "DE"),
    "NYC1": ("New York 1", "US"),
    "PHX1": ("Phoenix 1", "US"),
}
"""Each region's code, with its display name and country (ISO 3166 alpha-2)."""
REGIONS = tuple(REGION_PLACES)
DEFAULT_REGION = "LON1"
"""Every account's default region."""


def new_id() -> str:
    return str(uuid.uuid4())


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC with an explicit offset, to the second."""
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


@dataclass
class Effects:
    """What a change does beyond the state: events to emit and actions (S3 buckets) to run.

    They run after the state lock is released, so the S3 and webhook threads, which read the
    state, never wait on a lock held while calling them.
    """

    events: list[tuple[str, str, str]] = field(default_factory=list)
    actions: list[Callable[[], None]] = field(default_factory=list)

    def emit(self, account_id: str, event: str, resource_id: str) -> None:
        self.events.append((account_id, event, resource_id))

    def after(self, action: Callable[[], None]) -> None:
        self.actions.append(action)


@dataclass
class Record:
    id: str
    account_id: str
    region: str

    def __setattr__(self, name: str, value: Any) -> None:
        """Set a field; while the record is in a ``RecordTable`` that indexes the field, the
        index follows (a rename, a new key, an assignment), whoever makes the change."""
        table: RecordTable[Any] | None = self.__dict__.get(_TABLE)
        if table is None or name not in table.indexed:
            object.__setattr__(self, name, value)
            return
        table.unindex(self)
        object.__setattr__(self, name, value)
        table.index(self)


R = TypeVar("R", bound=Record)


#: Where a record keeps the table that holds it (outside its fields: never saved or compared).
_TABLE = "_altostratus_table"

#: Real seconds a deleted record keeps its place in its scope's listing order.
KEEP_PLACE_SECONDS = 600.0
#: Deleted records whose places are kept at most, per scope, beyond the scope's live records.
KEPT_PLACES = 1000


class RecordTable(dict[str, R]):
    """Records by id, also indexed by account and region, so that listing one account's records
    of a region costs what that account holds, not what the whole emulator holds.

    Each scope also keeps its records' order of creation, in which a deleted record keeps its
    place for ``KEEP_PLACE_SECONDS`` (``KEPT_PLACES`` of them at most): the pages of a listing
    are cut from that order, so a record that exists throughout a paged listing stays on the
    same page, and appears exactly once, whatever is created (at the end) or deleted meanwhile.

    The fields named in ``indexed`` are indexed across the whole table (``find``), and kept so
    as records change (see ``Record.__setattr__``); ``weigh``, when given, is summed per account
    (``total``), and ``reweigh`` follows a change it cannot see (a list grown in place). So
    uniqueness checks, lookups by key and quota counts cost the same at any number of records.
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

    def __setitem__(self, record_id: str, record: R) -> None:
        old = self.get(record_id)
        if old is not None:
            self._release(old)
        super().__setitem__(record_id, record)
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
        """Count the record's weight again, after a change ``weigh`` depends on."""
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
        still there, and how many pages the order makes."""
        key = (account_id, region)
        self._forget_places(key, time.monotonic())
        order = self._order.get(key, [])
        live = self.scoped.get(key, {})
        chosen = order[(number - 1) * size : number * size]
        return [live[i] for i in chosen if i in live], max(1, -(-len(order) // size))

    def in_scope(self, account_id: str, region: str | None) -> list[R]:
        if region is not None:
            return list(self.scoped.get((account_id, region), {}).values())
        return [
            record
            for (account, _), scope in self.scoped.items()
            if account == account_id
            for record in scope.values()
        ]


class Store(Generic[R]):
    """The records of one kind; ``kind`` and ``label`` name it in error codes and reasons.

    Every store has one contract: routes parse and validate the wire values and answer; the
    store builds, changes and removes records. ``create`` takes the record's fields (a value of
    None is an absent field), ``update`` only the fields that change, and each queues its events
    and side effects in ``effects``. A store checks what needs the state (names free, references,
    quota, in-use) and raises ``EmulatorError``s; nothing else writes ``records``.

    ``delete`` is the same for every kind: ``check_delete`` refuses it while something holds the
    record (409), then ``remove`` releases what the record held and drops it. For the kinds whose
    removal ``takes_time``, while the ``delete_seconds`` setting is above zero, the record stays
    in ``removals`` that many emulated seconds first: still listed and answered (in its deleting
    state, where the kind has a status), still holding its name, addresses and network, refusing
    changes (409 ``database_<kind>_deleting``); ``settle`` removes it once its time has come.
    """

    kind = ""
    label = ""
    #: The record fields ``records`` indexes (see ``RecordTable``); ``name`` for named kinds.
    indexed: ClassVar[tuple[str, ...]] = ()
    takes_time: ClassVar[bool] = False
    """Whether a delete leaves the record in a deleting state under ``delete_seconds``."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.records: RecordTable[R] = RecordTable(self.indexed)
        #: The records being deleted: their ids, with the emulated second each one goes.
        self.removals: dict[str, float] = {}

    def create(
        self, account_id: str, region: str, effects: Effects, fields: Mapping[str, Any]
    ) -> R:
        raise NotImplementedError

    def update(self, record: R, effects: Effects, changes: Mapping[str, Any]) -> None:
        raise NotImplementedError

    def delete(self, record: R, effects: Effects) -> None:
        """Gone at once, or deleting for ``delete_seconds`` (see the class); deleting a record
        already being deleted changes nothing."""
        if record.id in self.removals:
            return
        self.check_delete(record)
        seconds = self.state.settings.delete_seconds
        if self.takes_time and seconds > 0:
            self.removals[record.id] = self.state.clock.monotonic() + seconds
        else:
            self.remove(record, effects)

    def check_delete(self, record: R) -> None:
        """Raise while something holds the record (409 ``database_<kind>_inuse``)."""

    def remove(self, record: R, effects: Effects) -> None:
        """Release what the record holds, drop it, and queue its events."""
        raise NotImplementedError

    def deleting(self, record: R) -> bool:
        return record.id in self.removals

    def require_live(self, record: R) -> None:
        """409 ``database_<kind>_deleting`` when the record is being deleted."""
        if record.id in self.removals:
            raise being_deleted(self.kind, self.label)

    def get_live(self, account_id: str, region: str | None, record_id: str) -> R:
        """``get`` for a record to change or refer to: one being deleted is refused (409)."""
        record = self.get(account_id, region, record_id)
        self.require_live(record)
        return record

    def settle(self, now: float, effects: Effects) -> None:
        """Remove the records whose deleting time is over at emulated second ``now``."""
        if not self.removals:
            return
        for record_id, at in list(self.removals.items()):
            if at <= now:
                del self.removals[record_id]
                record = self.records.get(record_id)
                if record is not None:
                    self.remove(record, effects)

    def get(self, account_id: str, region: str | None, record_id: str) -> R:
        record = self.records.get(record_id)
        if record is None or record.account_id != account_id:
            raise not_found(self.kind, self.label)
        if region is not None and record.region != region:
            raise not_found(self.kind, self.label)
        return record

    def all(self, account_id: str, region: str | None = None) -> list[R]:
        """The account's records (of one region, when given), oldest first."""
        return self.records.in_scope(account_id, region)

    def page(
        self,
        account_id: str,
        region: str,
        number: int,
        size: int,
        describe: Callable[[R], dict[str, Any]],
    ) -> dict[str, Any]:
        """One page of the account's records of ``region``, stable under concurrent changes
        (see ``RecordTable``)."""
        records, pages = self.records.page(account_id, region, number, size)
        items = [describe(record) for record in records]
        return {"page": number, "per_page": size, "pages": pages, "items": items}

    def check_name_free(
        self, account_id: str, region: str, name: str, exclude_id: str | None = None
    ) -> None:
        """409 when another record of the account and region already has ``name``."""
        for other in self.records.find("name", name):
            if other.id != exclude_id and (other.account_id, other.region) == (account_id, region):
                raise duplicate_name(self.kind, self.label, name)
