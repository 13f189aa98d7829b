"""What the state file holds, taken from and put back into a running emulator: accounts,
every store's records and the removals under way (with the emulated second each ends), public
addresses, pending deliveries and the clock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from altostratus.emulator.persistence.codec import decode, encode
from altostratus.emulator.state.accounts import Accounts

if TYPE_CHECKING:
    from altostratus.emulator.clock import Clock
    from altostratus.emulator.state import State
    from altostratus.emulator.webhooks import WebhookDispatcher

#: The resource stores of ``State`` whose records the file holds, by attribute name.
STORES = (
    "networks",
    "firewalls",
    "load_balancers",
    "reserved_ips",
    "credentials",
    "object_stores",
    "webhooks",
)


def capture(state: State, clock: Clock, dispatcher: WebhookDispatcher) -> dict[str, Any]:
    """Everything to keep, as JSON-ready data, consistent under the state's lock."""
    with state.lock:
        body = {
            "accounts": encode(list(state.accounts.by_id.values())),
            "default_account": state.default_account.id,
            "stores": {
                name: encode(list(getattr(state, name).records.values())) for name in STORES
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


def apply(body: dict[str, Any], state: State, clock: Clock, dispatcher: WebhookDispatcher) -> None:
    """Replace the emulator's state with a captured one (before it serves anything)."""
    with state.lock:
        accounts = Accounts()
        for account in decode(body["accounts"]):
            accounts.by_id[account.id] = account
        state.accounts = accounts
        state.default_account = accounts.by_id[body["default_account"]]
        state.rebuild(with_defaults=False)
        for name in STORES:
            records = getattr(state, name).records
            for record in decode(body["stores"][name]):
                records[record.id] = record
        state.public_pool.used = set(body["public_addresses"])
        removals = body.get("removals", {})  # absent from files of earlier versions
        for name in STORES:
            store = getattr(state, name)
            store.removals = {i: float(at) for i, at in removals.get(name, {}).items()}
    clock.restore(body["clock"])
    dispatcher.restore(decode(body["deliveries"]))
