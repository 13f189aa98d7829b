"""Seed files: accounts, their keys and quota, and resources of every kind with fixed ids, loaded
into an emulator (``Emulator(seed=...)``, ``altostratus emulator --seed FILE``,
``PUT /_emulator/state``) and written from one (``GET /_emulator/state``).

A seed is YAML or JSON::

    accounts:
      - name: default            # the first entry is the emulator's own account
        quota: {network_count: 20}
        networks: [{id: net-app, label: app, cidr_v4: 10.9.0.0/24, region: LON1}]
        object_store_credentials:
          - {id: cred-ci, name: ci, access_key_id: AKCI, secret_access_key_id: s3cr3t}
        object_stores:
          - {id: store-assets, name: assets, access_key_id: AKCI, objects: {"a.txt": "hello"}}
      - {name: team-b, api_key: team-b-key}

Each resource entry is the body of the service's create call for that kind (the same fields,
checked the same way), plus ``id`` (fixed; a fresh one when left out) and ``region`` (the
default one when left out). An object store names its owner (``access_key_id``) and may list
``objects`` (key: text, or ``{base64: ...}``), a reserved IP the balancer it is assigned to
(``assign_to_id``), a load balancer whether its firewall was made for it and goes with it
(``firewall_made: true``, beside that firewall's ``firewall_id``). Entries are created in the
order of the table of kinds (``state.kinds``) through the service's own create calls, so a
refused entry fails with the service's reason, as one line naming the entry:
``accounts[0].networks[1] (id net-b): 422 ...``. Loading replaces the whole state (as a reset
does, then the seed). A bucket's suffix is new at each load.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import yaml
from werkzeug.test import Client as WSGIClient

from altostratus._terminal import escaped
from altostratus.emulator.s3 import store as s3_objects
from altostratus.emulator.state.base import given_id
from altostratus.emulator.state.kinds import KINDS, Kind
from altostratus.emulator.state.load_balancers import LoadBalancer
from altostratus.emulator.state.object_stores import ObjectStore
from altostratus.emulator.state.reserved_ips import ReservedIp

if TYPE_CHECKING:
    from altostratus.emulator.control.request_log import RequestLog
    from altostratus.emulator.state import State


class EmulatorApp(Protocol):
    """The emulator application as a seed loads into it."""

    state: State
    log: RequestLog
    on_request: Callable[[dict[str, Any], float], None] | None
    replacing: Callable[[Callable[[], None]], None]

    def clear(self) -> None: ...

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any: ...


#: The fields of a seed entry that its create call does not take.
_SEED_ONLY = ("objects", "assign_to_id", "firewall_made")
_ACCOUNT_FIELDS = {"name", "api_key", "quota", *(kind.seed_key for kind in KINDS)}


class SeedError(ValueError):
    """A seed that cannot be loaded; the message is one line naming the entry (what the seed's
    own text brings that a terminal would act on, a line break say, is written as its escape)."""

    def __init__(self, message: str) -> None:
        super().__init__(escaped(message))


def _named(key: Any) -> str:
    """A key of the seed as a message names it: as written when it is a plain word, else quoted."""
    text = str(key)
    return (
        text
        if isinstance(key, str) and text.isprintable() and text.strip() == text and text
        else repr(key)
    )


def read_seed(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The seed in the YAML or JSON file at ``path``."""
    try:
        seed = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SeedError(f"cannot read the seed {path}: {first}") from None
    return check_shape(seed)


def check_shape(seed: Any) -> dict[str, Any]:
    """The seed, when its outline is right: ``accounts``, a list of objects with known keys."""
    if not isinstance(seed, dict) or set(seed) - {"accounts"}:
        raise SeedError("a seed is an object with one key, accounts")
    accounts = seed.get("accounts") or []
    if not isinstance(accounts, list):
        raise SeedError("accounts: a list of accounts")
    for index, account in enumerate(accounts):
        where = f"accounts[{index}]"
        if not isinstance(account, dict):
            raise SeedError(f"{where}: an object (name, api_key, quota, resources)")
        unknown = sorted(set(account) - _ACCOUNT_FIELDS, key=str)
        if unknown:
            raise SeedError(
                f"{where}: {_named(unknown[0])} is not an account field or resource kind"
            )
        for kind in KINDS:
            entries = account.get(kind.seed_key) or []
            if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
                raise SeedError(f"{where}.{kind.seed_key}: a list of objects")
    return {"accounts": accounts}


def load(app: EmulatorApp, seed: dict[str, Any]) -> None:
    """Replace the app's whole state with ``seed`` (see the module): one change, which a state
    folder keeps whole or not at all (``replacing``)."""
    seed = check_shape(seed)

    def replace() -> None:
        app.clear()
        apply(app, seed)

    app.replacing(replace)


def apply(app: EmulatorApp, seed: dict[str, Any]) -> None:
    """Make what ``seed`` declares in the app's (cleared) state."""
    state = app.state
    with _quiet(app):
        for index, account in enumerate(seed["accounts"]):
            where = f"accounts[{index}]"
            key = _account(state, account, index, where)
            for kind in KINDS:
                for number, entry in enumerate(account.get(kind.seed_key) or []):
                    _create(app, key, kind, entry, f"{where}.{kind.seed_key}[{number}]")
    app.log.clear()


def _account(state: State, account: dict[str, Any], index: int, where: str) -> str:
    name = account.get("name") or f"account-{index + 1}"
    if not isinstance(name, str):
        raise SeedError(f"{where}.name: a text")
    key = account.get("api_key")
    with state.lock:
        if index == 0:
            found = state.default_account
            if key is not None and key != found.api_key:
                raise SeedError(
                    f"{where}.api_key: the first account is the emulator's own, whose key is "
                    f"{found.api_key!r} (--api-key); give it there"
                )
        else:
            if not isinstance(key, str) or not key:
                raise SeedError(f"{where}.api_key: an account after the first needs its key")
            if state.accounts.by_key(key) is not None:
                raise SeedError(f"{where}.api_key: another account has this key")
            found = state.accounts.add(name, key)
            state.networks.add_defaults(found.id)
        limits = account.get("quota") or {}
        if not isinstance(limits, dict):
            raise SeedError(f"{where}.quota: an object of limits by name (network_count: 20)")
        for limit, value in limits.items():
            if limit not in found.limits:
                raise SeedError(f"{where}.quota: {_named(limit)} is not a quota limit")
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise SeedError(f"{where}.quota.{limit}: a whole number from 0")
            found.limits[limit] = value
        return found.api_key


def _create(app: EmulatorApp, key: str, kind: Kind, entry: dict[str, Any], where: str) -> None:
    fixed = entry.get("id")
    if fixed is not None:
        if not isinstance(fixed, str) or not fixed.strip():
            raise SeedError(f"{where}: id must be a non-empty text")
        where = f"{where} (id {fixed})"
        if any(store.records.get(fixed) is not None for store in app.state.stores()):
            raise SeedError(f"{where}: another record has this id")
    body = {k: v for k, v in entry.items() if k not in ("id", "region", *_SEED_ONLY)}
    region = entry.get("region")
    if region is not None and not (isinstance(region, str) and region.isascii()):
        raise SeedError(f"{where}.region: a region's slug (LON1)")
    query = {"region": region} if region else {}
    objects = _objects(entry.get("objects") or {}, where) if kind.record is ObjectStore else {}
    firewall_made = _firewall_made(entry, where) if kind.record is LoadBalancer else False
    with given_id(fixed):
        made = _call(app, key, kind.path, body, query, where)
    if objects:
        bucket = app.state.object_stores.records[str(made.get("id"))].bucket
        for name, data in objects.items():
            s3_objects.put(bucket, name, data)
    if firewall_made:
        app.state.load_balancers.records[str(made.get("id"))].firewall_made = True
    assigned = entry.get("assign_to_id") if kind.record is ReservedIp else None
    if assigned is not None:
        action = {"action": "assign", "assign_to_id": assigned}
        actions = f"{kind.path}/{made.get('id')}/actions"
        _call(app, key, actions, action, query, f"{where}.assign_to_id")


def _call(
    app: EmulatorApp, key: str, path: str, body: Any, query: dict[str, str], where: str
) -> dict[str, Any]:
    """The service's answer to ``POST path`` with ``body``; a refusal is a ``SeedError``."""
    try:
        data = json.dumps(body, allow_nan=False)
    except (TypeError, ValueError) as error:  # a YAML date, a NaN: not a value the API takes
        raise SeedError(f"{where}: {error}") from None
    answer = WSGIClient(app).post(
        path,
        query_string=query,
        data=data,
        content_type="application/json",
        headers={"Authorization": f"bearer {key}"},
    )
    made = answer.get_json(silent=True)
    made = made if isinstance(made, dict) else {}
    if answer.status_code != 200:
        code, reason = made.get("code", ""), made.get("reason", answer.status)
        raise SeedError(f"{where}: {answer.status_code} {code}: {reason}")
    return made


def _firewall_made(entry: dict[str, Any], where: str) -> bool:
    """A balancer entry's ``firewall_made``: its firewall (``firewall_id``, made before it by the
    seed) was made for it, and is deleted with it."""
    made = entry.get("firewall_made", False)
    if not isinstance(made, bool):
        raise SeedError(f"{where}.firewall_made: true or false")
    if made and not entry.get("firewall_id"):
        raise SeedError(f"{where}.firewall_made: names no firewall_id, the firewall made for it")
    return made


def _objects(objects: Any, where: str) -> dict[str, bytes]:
    """A store entry's ``objects``, each key's bytes, checked before the store is made."""
    if not isinstance(objects, dict):
        raise SeedError(f"{where}.objects: an object of key: text (or {{base64: ...}})")
    found = {}
    for name, value in objects.items():
        at = f"{where}.objects[{name!r}]"
        if not isinstance(name, str) or not 0 < len(_utf8(name, at)) <= 1024:
            raise SeedError(f"{at}: a key is a text of 1 to 1024 bytes")
        if isinstance(value, str):
            data = _utf8(value, at)
        elif isinstance(value, dict) and set(value) == {"base64"}:
            try:
                data = base64.b64decode(value["base64"], validate=True)
            except (TypeError, ValueError):
                raise SeedError(f"{at}.base64: not valid base64") from None
        else:
            raise SeedError(f"{at}: a text, or {{base64: ...}}")
        found[name] = data
    return found


def _utf8(text: str, where: str) -> bytes:
    try:
        return text.encode()
    except UnicodeEncodeError:
        raise SeedError(f"{where}: holds a lone surrogate, which UTF-8 cannot carry") from None


@contextmanager
def _quiet(app: EmulatorApp) -> Iterator[None]:
    """The seed's own calls print no request line."""
    printer: Callable[[dict[str, Any], float], None] | None = app.on_request
    app.on_request = None
    try:
        yield
    finally:
        app.on_request = printer
