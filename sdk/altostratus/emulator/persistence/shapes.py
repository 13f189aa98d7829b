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


def check_record(record: Any) -> None:
    """``DamagedRecord`` naming the first field of ``record`` that does not hold its type."""
    kind = type(record)
    hints = field_hints(kind)
    if hints is None:
        return
    for name, hint in hints.items():
        if name in vars(record) and not conforms(vars(record)[name], hint):
            shown = repr(vars(record)[name])[:60]
            raise DamagedRecord(f"{kind.__qualname__}.{name} holds {shown}, not a {hint}")
