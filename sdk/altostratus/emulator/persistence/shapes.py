"""Whether a value read from a state file has the shape its record's field declares.

A file whose checksum holds may still be wrong inside (written by hand, or by a buggy version):
a network whose ``cidr`` is a number would start and then fail on every request. So each field of
a record read back is checked against its type hint, through lists, dicts, tuples, sets and
unions; a hint this check cannot judge (a callable, a type variable) is taken on trust.
"""

from __future__ import annotations

import types
import typing
from typing import Any

_SEQUENCES = (list, set, frozenset)


class DamagedRecord(ValueError):
    """A record's field does not hold what its type says; ``str()`` names the field."""


_HINTS: dict[type, dict[str, Any] | None] = {}


def field_hints(kind: type) -> dict[str, Any] | None:
    """The record type's field hints, None when they cannot be resolved."""
    if kind not in _HINTS:
        try:
            _HINTS[kind] = typing.get_type_hints(kind)
        except Exception:  # names only importable while type checking: not checked
            _HINTS[kind] = None
    return _HINTS[kind]


def conforms(value: Any, hint: Any) -> bool:
    if hint is Any or isinstance(hint, typing.TypeVar):
        return True
    if hint is None or hint is type(None):
        return value is None
    origin = typing.get_origin(hint)
    arguments = typing.get_args(hint)
    if origin is typing.Union or isinstance(hint, types.UnionType):
        return any(conforms(value, argument) for argument in arguments)
    if origin is typing.Literal:
        return value in arguments
    if origin in _SEQUENCES:
        return isinstance(value, origin) and all(conforms(item, arguments[0]) for item in value)
    if origin is dict:
        key, item = arguments or (Any, Any)
        return isinstance(value, dict) and all(
            conforms(k, key) and conforms(v, item) for k, v in value.items()
        )
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return all(conforms(item, arguments[0]) for item in value)
        return len(value) == len(arguments) and all(map(conforms, value, arguments))
    if origin is not None:  # another generic: judged by its class, when it has one
        return not isinstance(origin, type) or isinstance(value, origin)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if typing.is_typeddict(hint):
        hints = typing.get_type_hints(hint)
        return isinstance(value, dict) and all(
            key in hints and conforms(item, hints[key]) for key, item in value.items()
        )
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


_CHECKS: dict[type, list[tuple[str, Any, type | None, type | None]]] = {}


def _checks(kind: type) -> list[tuple[str, Any, type | None, type | None]]:
    """Each field's name and hint; the class a value of it is, when the hint is a plain class
    that ``isinstance`` judges alone (most are: ``str``, ``bool``); and the container class of a
    generic hint (``tuple[str, ...]``), whose empty values need no more look."""
    if kind not in _CHECKS:
        hints = field_hints(kind) or {}
        _CHECKS[kind] = [
            (name, hint, hint if _plain(hint) else None, _container(hint))
            for name, hint in hints.items()
        ]
    return _CHECKS[kind]


def _container(hint: Any) -> type | None:
    origin = typing.get_origin(hint)
    return origin if origin in (tuple, frozenset, list, dict) else None


def _plain(hint: Any) -> bool:
    return (
        isinstance(hint, type)
        and typing.get_origin(hint) is None
        and hint not in (int, float)
        and not typing.is_typeddict(hint)
    )


def check_record(record: Any) -> None:
    """``DamagedRecord`` naming the first field of ``record`` that does not hold its type."""
    kind = type(record)
    fields = vars(record)
    for name, hint, plain, container in _checks(kind):
        if name not in fields:
            continue
        value = fields[name]
        if plain is not None and isinstance(value, plain):
            continue
        if container is not None and type(value) is container and not value:
            continue
        if not conforms(value, hint):
            shown = repr(vars(record)[name])[:60]
            raise DamagedRecord(f"{kind.__qualname__}.{name} holds {shown}, not a {hint}")
