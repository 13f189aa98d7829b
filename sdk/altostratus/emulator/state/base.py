"""What every resource store shares: records scoped to an account and a region, lookups that
answer 404 for anything outside that scope, and the side effects a change queues."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from altostratus.emulator.errors import (
    being_deleted,
    duplicate_name,
    feature_unavailable,
    not_found,
)
from altostratus.emulator.state.ids import new_uuid
from altostratus.emulator.state.table import ANSWER, R, Record, RecordTable

__all__ = [
    "Effects",
    "Encoded",
    "Record",
    "RecordTable",
    "Store",
    "entry",
    "given_id",
    "iso",
    "new_id",
]

if TYPE_CHECKING:
    from altostratus.emulator.state import State

C = TypeVar("C")
"""The fields a store's ``create`` takes: a dataclass of ``bodies``."""
U = TypeVar("U")
"""The fields a store's ``update`` takes: a dataclass of ``bodies``."""


_given_id: ContextVar[str | None] = ContextVar("given_id", default=None)


def new_id() -> str:
    """A fresh id; inside ``given_id(value)``, ``value`` for the first record made."""
    given = _given_id.get()
    if given is not None:
        _given_id.set(None)
        return given
    return new_uuid()


@contextmanager
def given_id(value: str | None) -> Iterator[None]:
    """The next record made takes the id ``value`` (a seed file's fixed id), on this thread."""
    token = _given_id.set(value)
    try:
        yield
    finally:
        _given_id.reset(token)


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC with an explicit offset, to the second."""
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def entry(record: Record, **fields: Any) -> dict[str, Any]:
    """A seed entry (see ``seed``): the record's id, its region, and the fields with a value."""
    body: dict[str, Any] = {"id": record.id}
    if record.region:
        body["region"] = record.region
    body.update({k: v for k, v in fields.items() if v is not None and v != ""})
    return body


class Encoded(bytes):
    """An answer already encoded: exactly the bytes ``json.dumps`` gives for it, sent as they
    are."""

    @classmethod
    def array(cls, items: Iterable[bytes]) -> Encoded:
        """The JSON array of encoded ``items``, spaced as ``json.dumps`` spaces one."""
        return cls(b"[" + b", ".join(items) + b"]")


def encode(body: Any) -> Encoded:
    return Encoded(json.dumps(body).encode())


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


class Store(Generic[R, C, U]):
    """The records of one kind; ``kind`` and ``label`` name it in error codes and reasons.

    Every store has one contract: routes take a request's fields read and validated (the typed
    fields of ``bodies``) and answer; the store builds, changes and removes records. ``create``
    takes the new record's fields (``C``: None is an absent field), ``update`` the fields to
    change (``U``: None is a field left as it is), and each queues its events and side effects
    in ``effects``. A store checks what needs the state (names free, references, quota, in-use)
    and raises ``EmulatorError``s; nothing else writes ``records``. Record fields hold immutable
    values (tuples, frozensets), so every change is an assignment, which the state folder sees.

    ``delete`` is the same for every kind: ``check_delete`` refuses it while something holds the
    record (409), ``delete_dependents`` deletes what goes with it, then ``remove`` releases what
    the record held and drops it. For the kinds whose
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
    feature: ClassVar[str | None] = None
    """The region feature (``Region.features``) a create of this kind needs; None: any region."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.records: RecordTable[R] = RecordTable(self.indexed)
        #: The records being deleted: their ids, with the emulated second each one goes.
        self.removals: dict[str, float] = {}

    def create(self, account_id: str, region: str, effects: Effects, fields: C) -> R:
        raise NotImplementedError

    def describe(self, record: R) -> dict[str, Any]:
        """The record as a retrieve answers it."""
        shown: dict[str, Any] = getattr(record, "describe")()  # noqa: B009 - not every Record
        return shown

    def seed_entry(self, record: R) -> dict[str, Any] | None:
        """The record as a seed entry (``entry``): the create call that makes it again; None
        for a record no create makes (an account's default network)."""
        raise NotImplementedError

    def answer_inputs(self, record: R) -> Hashable | None:
        """What the record's answers show beyond its own fields (whether it is being deleted,
        what holds it), or None when they are never kept (they follow the clock)."""
        return None

    def answer(self, record: R, form: str = "describe") -> Encoded:
        """The store's method ``form`` of the record, encoded; kept on the record until one of
        its fields is set (``Record.__setattr__``) or its ``answer_inputs`` differ, so a list
        joins kept bytes instead of describing and encoding every record again."""
        inputs = self.answer_inputs(record)
        kept: dict[str, tuple[Hashable, Encoded]] = record.__dict__.setdefault(ANSWER, {})
        found = kept.get(form)
        if found is not None and inputs is not None and found[0] == inputs:
            return found[1]
        encoded = encode(getattr(self, form)(record))
        if inputs is not None:
            kept[form] = (inputs, encoded)
        return encoded

    def answers(self, records: Iterable[R], form: str = "describe") -> Encoded:
        """The JSON array of the records' ``answer``s."""
        return Encoded.array(self.answer(record, form) for record in records)

    def update(self, record: R, effects: Effects, changes: U) -> None:
        raise NotImplementedError

    def delete(self, record: R, effects: Effects) -> None:
        """Gone at once, or deleting for ``delete_seconds`` (see the class); deleting a record
        already being deleted changes nothing."""
        if record.id in self.removals:
            return
        self.check_delete(record)
        self.delete_dependents(record, effects)
        seconds = self.state.settings.delete_seconds
        if self.takes_time and seconds > 0:
            self.removals[record.id] = self.state.clock.monotonic() + seconds
            self.records.note(record.id)
        else:
            self.remove(record, effects)

    def check_delete(self, record: R) -> None:
        """Raise while something holds the record (409 ``database_<kind>_inuse``)."""

    def delete_dependents(self, record: R, effects: Effects) -> None:
        """Delete what goes with the record (a network's firewalls), once ``check_delete`` has
        let it go; nothing by default."""

    def remove(self, record: R, effects: Effects) -> None:
        """Release what the record holds, drop it, and queue its events."""
        raise NotImplementedError

    def require_feature(self, region: str) -> None:
        """400 ``region_feature_unavailable`` when ``region`` does not offer this kind."""
        served = self.state.settings.regions.get(region)
        if self.feature is not None and served is not None and self.feature not in served.features:
            raise feature_unavailable(self.label, region, self.feature)

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
                self.records.note(record_id)
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
        self, account_id: str, region: str, number: int, size: int, form: str = "describe"
    ) -> Encoded:
        """One page of the account's records of ``region``, stable under concurrent changes
        (see ``RecordTable``), each record in the store's ``form`` (see ``answer``)."""
        records, pages = self.records.page(account_id, region, number, size)
        head = json.dumps({"page": number, "per_page": size, "pages": pages, "items": []})
        return Encoded(head[:-3].encode() + self.answers(records, form) + b"}")

    def find(self, account_id: str, name: str) -> R | None:
        """The account's record named ``name``, of any region (a kind that indexes ``name``)."""
        return next(
            (r for r in self.records.find("name", name) if r.account_id == account_id), None
        )

    def check_name_free(
        self, account_id: str, region: str, name: str, exclude_id: str | None = None
    ) -> None:
        """409 when another record of the account and region already has ``name``."""
        for other in self.records.find("name", name):
            if other.id != exclude_id and (other.account_id, other.region) == (account_id, region):
                raise duplicate_name(self.kind, self.label, name)

    def rename(self, record: R, name: str | None) -> None:
        """Take ``name`` when given; 409 while another record of its account and region has
        it."""
        if name is not None:
            self.check_name_free(record.account_id, record.region, name, record.id)
            setattr(record, "name", name)  # noqa: B010 - a Record has no name field
