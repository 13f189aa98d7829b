"""The generated ``__main__.py``: each declaration as an ``adopt`` call, in ruff's format.

Values are written as Python literals (text through JSON's escaping, which Python reads the
same, with any character that is not printable as a Python escape), references as
``<variable>.<attribute>``; a call is spread one argument per line with trailing commas, as ruff
and black leave it. The source's text reaches the docstring and the comments only checked
(``_checks``: no control character, so no line ends inside it) and, in the docstring, with its
backslashes and quotes escaped: nothing from the source can end its literal, its comment or
the docstring.
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

from altostratus.migrate._declarations import Declaration, Reference
from altostratus.migrate._plan import Migration

WIDTH = 88
"""The line length of ruff's and black's default format."""

FrontEnd = Literal["dynamic", "plugin"]
"""How the program's resources reach the providers: as dynamic resources (``altostratus``) or
through the provider plugin (``altostratus.plugin``)."""

FRONT_ENDS: dict[FrontEnd, str] = {"dynamic": "altostratus", "plugin": "altostratus.plugin"}
"""Each front end's module, which the program imports as ``alto``."""

_THROUGH: dict[FrontEnd, str] = {
    "dynamic": "",
    "plugin": (
        "\nThe resources go through the provider plugin, which `altostratus plugin install`\n"
        "puts where Pulumi finds it."
    ),
}

_HEADER = '''\
"""Resources of {title}, adopted by `altostratus migrate`.

Each resource is declared with `adopt`: the first `pulumi up` takes the existing
record over by its id, only when every input given here equals the record's value,
so nothing is created, changed or deleted. {report} lists what was not
carried. Once adopted, a resource may be declared the usual way or keep `adopt`.{through}
"""

import {module} as alto
'''


def string(text: str) -> str:
    """``text`` as a double-quoted Python literal: JSON's escaping, which Python reads the same,
    and ``\\u``/``\\U`` escapes for whatever is not printable (JSON writes a character
    beyond U+FFFF as two surrogates, which Python would read as two characters)."""
    quoted = json.dumps(text, ensure_ascii=False)
    if quoted.isprintable():
        return quoted
    return "".join(ch if ch.isprintable() else _escape(ord(ch)) for ch in quoted)


def _escape(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def docstring_text(text: str) -> str:
    """``text`` inside the program's docstring: its backslashes and quotes escaped."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def literal(value: Any, indent: int) -> str:
    """``value`` as Python source, starting at column ``indent``."""
    if isinstance(value, Reference):
        return f"{value.target.variable}.{value.attribute}"
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise ValueError("cannot write a number that is not finite into the program")
        return repr(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, list):
        items = [literal(item, indent + 4) for item in value]
        inline = f"[{', '.join(items)}]"
        if indent + len(inline) + 1 <= WIDTH and "\n" not in inline:
            return inline
        inner = " " * (indent + 4)
        return "[\n" + "".join(f"{inner}{item},\n" for item in items) + " " * indent + "]"
    raise TypeError(f"cannot write {type(value).__name__} into the program")


def declaration_source(declaration: Declaration) -> str:
    lines = [
        f"# {' '.join(declaration.label.split())}",
        f"{declaration.variable} = alto.{declaration.resource}.adopt(",
        f"    {string(declaration.name)},",
        f"    {string(declaration.id)},",
        f"    alto.{declaration.resource}Args(",
    ]
    for name, value in declaration.inputs.items():
        prefix = f"        {name}="
        lines.append(f"{prefix}{literal(value, len(prefix))},")
    lines += ["    ),", ")"]
    return "\n".join(lines)


def program_source(
    migration: Migration, report_name: str, *, front_end: FrontEnd = "dynamic"
) -> str:
    """The whole ``__main__.py``, its resources through ``front_end``."""
    title = docstring_text(migration.source.title)
    header = _HEADER.format(
        title=title,
        report=docstring_text(report_name),
        through=_THROUGH[front_end],
        module=FRONT_ENDS[front_end],
    )
    body = "\n\n".join(declaration_source(d) for d in migration.declarations)
    return f"{header}\n{body}\n"
