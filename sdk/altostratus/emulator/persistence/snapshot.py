"""What the state folder holds, taken from and put back into a running emulator: accounts, every
store's records and the removals under way (with the emulated second each ends), public
addresses, pending deliveries and the clock; and what one change altered (``Changes``)."""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING, Any

from altostratus.emulator.persistence.codec import decode, encode, saved
from altostratus.emulator.state.accounts import Account, Accounts
from altostratus.emulator.state.kinds import KINDS

if TYPE_CHECKING:
    from altostratus.emulator.clock import Clock
    from altostratus.emulator.state import State
    from altostratus.emulator.webhooks import WebhookDispatcher

#: The resource stores of ``State`` whose records the file holds, by attribute name.
STORES = tuple(kind.attribute for kind in KINDS)


def capture(state: State, clock: Clock, dispatcher: WebhookDispatcher) -> dict[str, Any]:
    """Everything to keep, as JSON-ready data, consistent under the state's lock."""
    with state.lock:
        body = {
            "accounts": encode(list(state.accounts.by_id.values())),
            "default_account": state.default_account.id,
            "stores": {
                name: [saved(record) for record in getattr(state, name).records.values()]
                for name in STORES
            },
            "public_addresses": sorted(state.public_pool.used),
            "removals": {
                name: dict(getattr(state, name).removals)
                for name in STORES
                if getattr(state, name).removals
            },
        }
    body["deliveries"] = encode(dispatcher.saved())
    body["clock"] = clock.saved()
    return body


class Changes:
    """Takes from a running emulator what changed since the last take: the records touched in
    each store (with their removal times), the public addresses handed out or released, and
    the small parts kept whole (accounts, pending deliveries, the clock).

    A change costs what it touched, not what the state holds (the deliveries, bounded, are
    written only when they changed). ``take`` returns None before the first ``whole`` and when
    the stores were rebuilt (a reset) since: then only a whole capture is right.
    """

    def __init__(self, state: State) -> None:
        self._state = state
        self._tables: tuple[Any, ...] = ()
        self._deliveries: Any = None

    @staticmethod
    def _current(state: State) -> tuple[Any, ...]:
        return (state.public_pool, *(getattr(state, name).records for name in STORES))

    def _forget(self) -> None:
        """Start over from the state as it is (with its lock held)."""
        self._tables = self._current(self._state)
        for table in self._tables[1:]:
            table.touched = {}
        self._state.public_pool.changed = set()

    def whole(self, clock: Clock, dispatcher: WebhookDispatcher) -> dict[str, Any]:
        """A whole capture, from which the next ``take`` counts."""
        with self._state.lock:
            body = capture(self._state, clock, dispatcher)
            self._forget()
        self._deliveries = body["deliveries"]
        return body

    def start(self, dispatcher: WebhookDispatcher) -> None:
        """Count the next ``take`` from the state as it is: the state just loaded from the
        folder, which already holds it."""
        with self._state.lock:
            self._forget()
        self._deliveries = encode(dispatcher.saved())

    def take(self, clock: Clock, dispatcher: WebhookDispatcher) -> dict[str, Any] | None:
        state = self._state
        with state.lock:
            current = self._current(state)
            if len(current) != len(self._tables) or any(
                a is not b for a, b in zip(current, self._tables, strict=False)
            ):
                return None  # rebuilt since the last whole capture
            pool = state.public_pool
            if pool.changed is None or any(t.touched is None for t in current[1:]):
                return None  # not noting changes: only a whole capture is right
            records: dict[str, list[Any]] = {}
            for name in STORES:
                store = getattr(state, name)
                touched = store.records.touched
                if touched:
                    records[name] = [
                        [i, saved(store.records.get(i)), store.removals.get(i)] for i in touched
                    ]
                    touched.clear()
            addresses = [[a, a in pool.used] for a in sorted(pool.changed)]
            pool.changed.clear()
            change: dict[str, Any] = {
                "records": records,
                "public_addresses": addresses,
                "accounts": encode(list(state.accounts.by_id.values())),
                "default_account": state.default_account.id,
            }
        deliveries = encode(dispatcher.saved())
        if deliveries != self._deliveries:  # written only when they changed
            change["deliveries"] = self._deliveries = deliveries
        change["clock"] = clock.saved()
        return change


def apply(body: dict[str, Any], state: State, clock: Clock, dispatcher: WebhookDispatcher) -> None:
    """Replace the emulator's state with a captured one (before it serves anything); a body of
    another shape than ``capture`` makes is refused (``ValueError`` saying where)."""
    with state.lock:
        accounts = Accounts()
        for account in _records(body["accounts"], Account, "accounts"):
            accounts.by_id[account.id] = account
        state.accounts = accounts
        state.default_account = accounts.by_id[body["default_account"]]
        state.rebuild(with_defaults=False)
        for name in STORES:
            store = getattr(state, name)
            held = body["stores"].get(name, [])  # a kind newer than the file: none
            for record in _records(held, _record_type(store), f"stores.{name}"):
                store.records[record.id] = record
        addresses = body["public_addresses"]
        _expect(_all(addresses, list, str), "public_addresses is not a list of addresses")
        state.public_pool.used = set(addresses)
        removals = body.get("removals", {})  # absent from files of earlier versions
        _expect(isinstance(removals, dict), "removals is not an object")
        for name in STORES:
            found = removals.get(name, {})
            _expect(_all(found, dict, (int, float)), f"removals.{name} is not a map of times")
            getattr(state, name).removals = {i: float(at) for i, at in found.items()}
    clock.restore(body["clock"])
    dispatcher.restore(decode(body["deliveries"]))


def _expect(condition: bool, problem: str) -> None:
    if not condition:
        raise ValueError(problem)


def _all(value: Any, container: type, item: type | tuple[type, ...]) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return isinstance(value, container) and all(isinstance(i, item) for i in items)


def _record_type(store: Any) -> type:
    """The record class of a ``Store[R]``."""
    for base in getattr(type(store), "__orig_bases__", ()):
        for argument in typing.get_args(base):
            if isinstance(argument, type):
                return argument
    return object


def _records(encoded: Any, kind: type, where: str) -> list[Any]:
    records = decode(encoded)
    _expect(
        _all(records, list, kind) and all(isinstance(getattr(r, "id", None), str) for r in records),
        f"{where} is not a list of {kind.__name__} records",
    )
    return list(records)
