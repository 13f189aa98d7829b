"""What every resource store shares: records scoped to an account and a region, lookups that
answer 404 for anything outside that scope, and the side effects a change queues."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Generic, TypeVar

from altostratus.emulator.errors import duplicate_name, not_found

if TYPE_CHECKING:
    from altostratus.emulator.state import State

REGIONS = ("LON1", "FRA1", "NYC1", "PHX1")
DEFAULT_REGION = "LON1"


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


R = TypeVar("R", bound=Record)


class RecordTable(dict[str, R]):
    """Records by id, also indexed by account and region, so that listing one account's records
    of a region costs what that account holds, not what the whole emulator holds."""

    def __init__(self) -> None:
        super().__init__()
        self.scoped: dict[tuple[str, str], dict[str, R]] = {}

    def __setitem__(self, record_id: str, record: R) -> None:
        super().__setitem__(record_id, record)
        self.scoped.setdefault((record.account_id, record.region), {})[record_id] = record

    def __delitem__(self, record_id: str) -> None:
        record = self[record_id]
        super().__delitem__(record_id)
        scope = self.scoped[(record.account_id, record.region)]
        del scope[record_id]
        if not scope:
            del self.scoped[(record.account_id, record.region)]

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
    """The records of one kind; ``kind`` and ``label`` name it in error codes and reasons."""

    kind = ""
    label = ""

    def __init__(self, state: State) -> None:
        self.state = state
        self.records: RecordTable[R] = RecordTable()

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

    def check_name_free(
        self, account_id: str, region: str, name: str, exclude_id: str | None = None
    ) -> None:
        """409 when another record of the account and region already has ``name``."""
        for other in self.all(account_id, region):
            if other.id != exclude_id and getattr(other, "name", None) == name:
                raise duplicate_name(self.kind, self.label, name)
