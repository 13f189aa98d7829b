"""What a migration refuses before it writes anything, and how it prints what it read.

A source is data from a file the user was given: every value that reaches the generated program,
``Pulumi.yaml`` or the report is checked here first. The document may nest at most ``MAX_DEPTH``
levels; each part read must have the shape the tool writes (an object, a list, text, a number);
text that is written must hold no control character (nor a format character, a line or
paragraph separator, or a lone surrogate), and a number must be finite. A refusal is a
``SourceError`` of one line naming the resource and the field, never the value (it may be
secret); what it names of the source is printed through the one terminal escaping
(``altostratus._terminal``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from altostratus._terminal import escaped
from altostratus.migrate._source import SourceError

MAX_DEPTH = 64
"""Levels of nesting a source may hold: a real state holds about ten."""

_KINDS = {
    "Cc": "control character",
    "Cf": "format character",
    "Cs": "lone surrogate",
    "Zl": "line separator",
    "Zp": "paragraph separator",
}
"""The Unicode categories refused in what is written: a terminal, an editor or Python acts on
them (a line end, an escape sequence, a right-to-left override), and no UTF-8 carries a lone
surrogate."""


def check_depth(document: Any) -> None:
    """Refuse a document nesting deeper than ``MAX_DEPTH``, walked without recursion."""
    pending: list[tuple[Any, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            items: Any = value.values()
        elif isinstance(value, list):
            items = value
        else:
            continue
        if depth > MAX_DEPTH:
            raise SourceError(
                f"the source nests deeper than {MAX_DEPTH} levels, which neither tool writes"
            )
        pending.extend((item, depth + 1) for item in items)


def _shape(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null"


def refuse(where: str, field: str, reason: str) -> SourceError:
    """The one-line error for ``field`` of ``where`` (both printed escaped)."""
    return SourceError(f"{escaped(where)}: `{escaped(field)}` {reason}")


_NAMES: dict[type, str] = {dict: "an object", list: "a list", str: "text"}


def expect(value: Any, kind: type, where: str, field: str) -> Any:
    """``value`` when it is a ``kind`` (``dict``, ``list`` or ``str``), else a refusal naming
    what it is."""
    if isinstance(value, kind):
        return value
    raise refuse(where, field, f"is {_shape(value)}, not {_NAMES[kind]}")


def optional(value: Any, kind: type, where: str, field: str) -> Any:
    """``value`` when absent (None) or a ``kind``; a refusal otherwise."""
    return None if value is None else expect(value, kind, where, field)


def texts(value: Any, where: str, field: str) -> list[str]:
    """A list of checked texts (absent: empty)."""
    listed = optional(value, list, where, field) or []
    return [check_text(expect(item, str, where, field), where, field) for item in listed]


def check_text(text: str, where: str, field: str) -> str:
    """``text`` when it holds no character the generated files or a terminal could act on."""
    if not text.isprintable():
        for ch in text:
            kind = _KINDS.get(unicodedata.category(ch))
            if kind is not None:
                name = "a NUL byte" if ch == "\0" else f"the {kind} U+{ord(ch):04X}"
                raise refuse(where, field, f"holds {name}, which a migration does not write")
    return text
