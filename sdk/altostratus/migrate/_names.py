"""Names in the generated program: Pulumi resource names from the source's, and variables.

A resource keeps its name in the source (``main``, ``payments-net``, ``cache-this-0``), made
unique per resource class (the type is part of a URN, so a network and a firewall may share
one). Its variable is that name as a Python identifier (``payments_net``); one that another
declaration has taken gets the resource's kind appended (``web_firewall``), and a keyword, a
builtin or a name the program imports gets a trailing underscore.
"""

from __future__ import annotations

import builtins
import keyword
import re

from altostratus.migrate._declarations import Declaration

_TAKEN = frozenset({"alto", "pulumi"}) | frozenset(dir(builtins))


def snake(resource: str) -> str:
    """``object_store_credential`` for ``ObjectStoreCredential``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", resource).lower()


def identifier(name: str, resource: str) -> str:
    """``name`` as a Python identifier: ASCII letters, digits and underscores, lower case."""
    variable = re.sub(r"[^0-9a-zA-Z]+", "_", name).strip("_").lower() or snake(resource)
    if variable[0].isdigit():
        variable = f"{snake(resource)}_{variable}"
    if keyword.iskeyword(variable) or keyword.issoftkeyword(variable) or variable in _TAKEN:
        variable += "_"
    if not variable.isidentifier() or keyword.iskeyword(variable):
        raise ValueError(f"{variable!r} is not an identifier")  # never: made of [0-9a-z_]
    return variable


def name_declarations(declarations: list[Declaration]) -> None:
    """Give each declaration a unique resource name (per resource) and a unique variable."""
    names: set[tuple[str, str]] = set()
    variables: set[str] = set()
    numbers: dict[tuple[str, ...], int] = {}
    """The last number tried after each taken name or variable, so repeats cost no rescan."""
    for declaration in declarations:
        base_name = declaration.name or snake(declaration.resource)
        name = base_name
        if (declaration.resource, name) in names:
            number = numbers.get(("name", declaration.resource, base_name), 1)
            while (declaration.resource, name) in names:
                number += 1
                name = f"{base_name}-{number}"
            numbers[("name", declaration.resource, base_name)] = number
        declaration.name = name
        names.add((declaration.resource, name))

        base = identifier(name, declaration.resource)
        variable = base
        if variable in variables:
            variable = f"{base.rstrip('_')}_{snake(declaration.resource)}"
        if variable in variables:
            stem = f"{base.rstrip('_')}_{snake(declaration.resource)}"
            number = numbers.get(("variable", stem), 1)
            while variable in variables:
                number += 1
                variable = f"{stem}_{number}"
            numbers[("variable", stem)] = number
        declaration.variable = variable
        variables.add(variable)
