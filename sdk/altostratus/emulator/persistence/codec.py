"""The state file's encoding: the emulator's records as tagged JSON.

Plain JSON values stay as they are; everything else is an object with one ``@`` tag: ``@record``
(a record of the emulator, by the name of its kind in ``RECORDS``, never by where its class is
defined, with every field), ``@dict``, ``@tuple``, ``@set``, ``@datetime``, ``@bytes``,
``@network`` and ``@address``. Only the record types of ``RECORDS`` are made when reading, and a
record whose fields differ from its type's (a file from another version of the emulator) is
refused: nothing is guessed or dropped; so is a record whose field does not hold what its type
says (``shapes``). Moving or renaming a record's class changes nothing on disk.
"""

from __future__ import annotations

import base64
import dataclasses
import ipaddress
from datetime import datetime
from typing import Any

from altostratus.emulator.persistence.shapes import check_record
from altostratus.emulator.state.accounts import Account
from altostratus.emulator.state.firewalls import Rule
from altostratus.emulator.state.kinds import KINDS
from altostratus.emulator.state.table import SAVED, Record
from altostratus.emulator.webhooks.dispatcher import SAVED_RECORDS

#: The record types a state file holds, by name: each kind's records (``state.kinds``), the
#: accounts, a firewall's rules and the webhook attempts waiting.
RECORDS: dict[str, type] = {
    **{kind.name: kind.record for kind in KINDS},
    "account": Account,
    "firewall_rule": Rule,
    **SAVED_RECORDS,
}
_NAMES = {kind: name for name, kind in RECORDS.items()}


class IncompatibleState(ValueError):
    """The file holds records this version of the emulator does not define the same way."""


def encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {"@dict": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"@tuple": [encode(item) for item in value]}
    if isinstance(value, (set, frozenset)):
        return {"@set": sorted((encode(item) for item in value), key=repr)}
    if isinstance(value, datetime):
        return {"@datetime": value.isoformat()}
    if isinstance(value, bytes):
        return {"@bytes": base64.b64encode(value).decode("ascii")}
    if isinstance(value, (ipaddress.IPv4Network, ipaddress.IPv6Network)):
        return {"@network": str(value)}
    if isinstance(value, (ipaddress.IPv4Address, ipaddress.IPv6Address)):
        return {"@address": str(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = _NAMES.get(type(value))
        if name is None:
            raise TypeError(f"{type(value).__qualname__} is not a record of the emulator")
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"@record": name, "fields": fields}
    raise TypeError(f"the state file cannot hold a {type(value).__qualname__}")


def saved(record: Any) -> Any:
    """``encode(record)`` for a record of a store (None for None), kept on the record until one
    of its fields is set (``Record.__setattr__``): a snapshot of a large state encodes only the
    records changed since the last one."""
    if record is None:
        return None
    found = record.__dict__.get(SAVED)
    if found is None:
        found = record.__dict__[SAVED] = encode(record)
    return found


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    if "@record" in value:
        return _record(value["@record"], value["fields"])
    ((tag, body),) = value.items()
    if tag == "@dict":
        return {_hashable(decode(k)): decode(v) for k, v in body}
    if tag == "@tuple":
        return tuple(decode(item) for item in body)
    if tag == "@set":
        # Records hold immutable fields, so a set comes back as the frozenset it was saved from.
        return frozenset(_hashable(decode(item)) for item in body)
    if tag == "@datetime":
        return datetime.fromisoformat(body)
    if tag == "@bytes":
        return base64.b64decode(body)
    if tag == "@network":
        return _network(body)
    if tag == "@address":
        return ipaddress.ip_address(body)
    raise ValueError(f"unknown tag {tag!r}")


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _network(text: str) -> Any:
    """``ip_network(text)``, built from its integers for the common ``a.b.c.d/n`` (a tenth of
    the parse's cost: a large state holds one per network)."""
    address, _, prefix = text.partition("/")
    parts = address.split(".")
    if len(parts) == 4 and f"{address}/{prefix}" == text:
        try:
            a, b, c, d = map(int, parts)
            size = int(prefix)
        except ValueError:
            return ipaddress.ip_network(text)
        if f"{a}.{b}.{c}.{d}/{size}" == text and max(a, b, c, d) < 256:
            return ipaddress.IPv4Network(((a << 24) | (b << 16) | (c << 8) | d, size))
    return ipaddress.ip_network(text)


_KINDS: dict[str, tuple[Any, frozenset[str], dict[str, Any]]] = {}
_FACTORIES: dict[str, set[str]] = {}
#: JSON values that decode to themselves.
_PLAIN = frozenset({str, bool, int, float, type(None)})


def _kind(name: str) -> tuple[Any, frozenset[str], dict[str, Any]]:
    """The record type a saved record names, its fields, and the defaults of the fields that
    have one (looked up once per type)."""
    found = _KINDS.get(name)
    if found is not None:
        return found
    kind = RECORDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise IncompatibleState(f"this version has no record type {name!r}")
    defaults: dict[str, Any] = {}
    _FACTORIES[name] = set()
    for field in dataclasses.fields(kind):
        if field.default is not dataclasses.MISSING:
            defaults[field.name] = field.default
        elif field.default_factory is not dataclasses.MISSING:
            defaults[field.name] = field.default_factory
            _FACTORIES[name].add(field.name)
    _KINDS[name] = kind, frozenset(f.name for f in dataclasses.fields(kind)), defaults
    return _KINDS[name]


def _record(name: str, fields: dict[str, Any]) -> Any:
    """A record read back. A field added since the record was saved takes its default (a
    later version adds fields that way); an unknown field, or a missing one without a default,
    is refused."""
    kind, expected, defaults = _kind(name)
    missing = expected - fields.keys()
    if not fields.keys() <= expected or not missing <= defaults.keys():
        raise IncompatibleState(f"{name} records have other fields in this version")
    record = object.__new__(kind)
    values = record.__dict__  # a record's fields are plain attributes: set them at once
    for field_name, encoded in fields.items():
        values[field_name] = encoded if type(encoded) in _PLAIN else decode(encoded)
    for field_name in missing:
        default = defaults[field_name]
        values[field_name] = default() if field_name in _FACTORIES[name] else default
    if issubclass(kind, Record) and not missing:  # its saved form is what it was read from
        record.__dict__[SAVED] = {"@record": name, "fields": fields}
    check_record(record)
    return record
