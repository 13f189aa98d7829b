"""URNs and aliases as the engine makes them.

``create_urn`` follows ``resource.CreateURN`` (``sdk/go/common/resource/urn.go``): a child's type
is qualified by its parent's whole qualified type, a child of the stack's by none. ``Aliases``
follows the step generator's ``collapseAliasToUrn``, ``generateAliases`` and
``inheritedChildAlias`` (``pkg/resource/deploy/step_generator.go``): an alias given by URN is
taken as it is, one given by parts is completed from the resource's own; and a resource whose
parent was found under an alias also answers to the URN it had under that parent, with the
parent's old name in place of its new one where the child's name starts with it (the
``<parent>-<child>`` naming convention). So renaming a component with an alias carries over its
children too.
"""

from __future__ import annotations

import threading

from altostratus.testing._results import STACK_TYPE
from altostratus.testing.runner.state import Alias


def urn_stack(urn: str) -> str:
    return urn.split("::")[0].removeprefix("urn:pulumi:")


def urn_project(urn: str) -> str:
    return urn.split("::")[1]


def qualified_type(urn: str) -> str:
    """The URN's whole type, its parents' types first (``A$B$C``)."""
    return urn.split("::")[2]


def new_urn(stack: str, project: str, parent_type: str, type_: str, name: str) -> str:
    """``resource.NewURN``: the parent's qualified type before the resource's own."""
    if parent_type and parent_type != STACK_TYPE:
        type_ = f"{parent_type}${type_}"
    return f"urn:pulumi:{stack}::{project}::{type_}::{name}"


def create_urn(stack: str, project: str, parent: str, type_: str, name: str) -> str:
    """``resource.CreateURN``: the URN of ``name`` of ``type_`` under the ``parent`` URN."""
    return new_urn(stack, project, qualified_type(parent) if parent else "", type_, name)


class Aliases:
    """The aliases of each registration, and which one each resource was found under."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._used: dict[str, str] = {}  # sg.aliases: URN -> the old URN it took over

    def found_under(self, urn: str, alias: str) -> None:
        """Record that the resource ``urn`` took over the old resource ``alias``."""
        with self._lock:
            self._used[urn] = alias

    def generate(
        self, urn: str, type_: str, name: str, parent: str, given: list[Alias]
    ) -> list[str]:
        """``generateAliases``: the URNs the resource may have had, in order, without repeats."""
        with self._lock:
            parent_alias = self._used.get(parent, "") if parent else ""
        found: list[str] = []

        def add(alias: str) -> None:
            if alias not in found:
                found.append(alias)

        collapsed = [self._collapse(urn, type_, name, parent, alias) for alias in given]
        for alias_urn in collapsed:
            add(alias_urn)
        if parent_alias:
            parent_name = parent.rsplit("::", 1)[-1]
            add(_inherited(urn, type_, name, parent_name, parent_alias))
            for alias_urn in collapsed:
                alias_type = qualified_type(alias_urn).rsplit("$", 1)[-1]
                alias_name = alias_urn.rsplit("::", 1)[-1]
                add(_inherited(urn, alias_type, alias_name, parent_name, parent_alias))
        return found

    def _collapse(self, urn: str, type_: str, name: str, parent: str, alias: Alias) -> str:
        """``collapseAliasToUrn``: an alias spec as a URN, missing parts from the resource."""
        if alias.urn:
            return alias.urn
        alias_parent = alias.parent or parent
        if alias.parent:
            # A parent found under an alias: this resource's old URN sits under that one.
            with self._lock:
                alias_parent = self._used.get(alias.parent, alias.parent)
        if alias.no_parent or (alias_parent and qualified_type(alias_parent) == STACK_TYPE):
            alias_parent = ""
        return create_urn(
            alias.stack or urn_stack(urn),
            alias.project or urn_project(urn),
            alias_parent,
            alias.type or type_,
            alias.name or name,
        )


def _inherited(urn: str, type_: str, name: str, parent_name: str, parent_alias: str) -> str:
    """``inheritedChildAlias``: the child's URN under its parent's old URN, with the parent's
    old name in place of its new one at the start of the child's name."""
    if name.startswith(parent_name):
        name = parent_alias.rsplit("::", 1)[-1] + name[len(parent_name) :]
    return new_urn(urn_stack(urn), urn_project(urn), qualified_type(parent_alias), type_, name)
