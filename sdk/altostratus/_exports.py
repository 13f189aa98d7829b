"""Lazy public names: a package lists each of its public names once, and loads it on first use.

The list is the package's ``if TYPE_CHECKING:`` block of ``from <home> import <Name> as <Name>``
lines. Type checkers and editors read those imports as explicit re-exports; at run time
``lazy_exports`` reads the same lines from the package's source and gives the module
``__getattr__``, ``__dir__`` and ``__all__``, so a name's home is imported only when the name is
first used.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple


class LazyExports(NamedTuple):
    all: list[str]
    getattr: Callable[[str], Any]
    dir: Callable[[], list[str]]


def declared_exports(source: str) -> dict[str, str]:
    """``{name: home module}`` of the ``X as X`` imports in the source's TYPE_CHECKING block."""
    homes: dict[str, str] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"):
            continue
        for statement in node.body:
            if isinstance(statement, ast.ImportFrom) and statement.module:
                for alias in statement.names:
                    if alias.asname == alias.name:
                        homes[alias.name] = statement.module
    return homes


def lazy_exports(package: dict[str, Any], *eager: str) -> LazyExports:
    """The lazy surface of the package whose ``globals()`` is given; ``eager`` names are
    defined in the package itself and listed in ``__all__`` too."""
    module_name = str(package["__name__"])
    homes = declared_exports(Path(str(package["__file__"])).read_text(encoding="utf-8"))
    names = sorted([*eager, *homes])

    def load(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        package[name] = value
        return value

    def listing() -> list[str]:
        return list(names)

    return LazyExports(names, load, listing)
