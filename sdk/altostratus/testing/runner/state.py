"""What the engine keeps between runs, what a program asks for, and what each step reports."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from altostratus.testing._properties import Properties, plain_secrets
from altostratus.testing._results import front_of, urn_name

PLUGIN_PROVIDER = "pulumi:providers:altostratus"
"""The type of the plugin's provider resources: the default one and ``altostratus.Provider``."""


def runs(type_: str) -> bool:
    """Whether the runner calls a provider process for resources of ``type_``."""
    return front_of(type_) != ""


def provider_urn(reference: str) -> str:
    """The URN of a provider reference (``<urn>::<id>``, as a resource's ``provider`` holds)."""
    return reference.rsplit("::", 1)[0] if reference.count("::") > 3 else reference


@dataclass
class ResourceState:
    """One resource in the stack's state (``pkg/resource/state.go``'s ``State``, in short).

    ``inputs`` are the checked inputs and ``outputs`` the provider's outputs, both with their
    secrets marked. ``external`` resources were read (``ResourceOptions(id=...)``): the stack
    refers to them but does not own them, so destroy only forgets them. ``delete`` marks an old
    resource replaced but not yet deleted (a failed deployment leaves it for the next one);
    ``pending_replacement`` one a delete-before-replace deleted before creating its replacement
    (``PendingReplacement``): the next deployment replaces it without deleting it again. The
    options the engine keeps with the state (``protect``, ``retain_on_delete``,
    ``deleted_with``, ``replace_with``, ``ignore_changes``, ``replacement_trigger``, the
    ``import_id`` it was imported with) act on later operations, refresh and destroy too.
    """

    urn: str
    type: str
    id: str
    inputs: Properties
    outputs: Properties
    custom: bool = True
    external: bool = False
    parent: str = ""
    dependencies: list[str] = field(default_factory=list)
    property_dependencies: dict[str, list[str]] = field(default_factory=dict)
    additional_secret_outputs: list[str] = field(default_factory=list)
    delete: bool = False
    pending_replacement: bool = False
    protect: bool = False
    retain_on_delete: bool = False
    deleted_with: str = ""
    replace_with: list[str] = field(default_factory=list)
    ignore_changes: list[str] = field(default_factory=list)
    replacement_trigger: Any = None
    import_id: str = ""
    provider: str = ""
    """The reference (``<urn>::<id>``) of the provider instance of a plugin resource."""

    @property
    def name(self) -> str:
        return urn_name(self.urn)

    def depends_on(self) -> set[str]:
        """Every resource this one needs: its parent, dependencies, property dependencies, the
        resource it is deleted with and those it is replaced with (``GetAllDependencies``)."""
        found = set(self.dependencies) | set(self.replace_with)
        for urns in self.property_dependencies.values():
            found.update(urns)
        found.update(urn for urn in (self.parent, self.deleted_with) if urn)
        if self.provider:
            found.add(provider_urn(self.provider))
        return found


@dataclass
class Snapshot:
    """A stack's state: the resources in dependency order and the provider's stored inputs.

    ``provider_config`` is what the engine stores as the inputs of the dynamic provider: the
    whole stack configuration with namespaced keys, secrets marked (``GetPackageConfig`` in
    ``pkg/resource/deploy/target.go``). ``pulumi refresh`` and ``pulumi destroy`` configure the
    provider from it, not from the current configuration.
    """

    resources: list[ResourceState] = field(default_factory=list)
    provider_config: Properties = field(default_factory=dict)

    def copy(self) -> Snapshot:
        return copy.deepcopy(self)

    def get(self, urn: str) -> ResourceState | None:
        return next((r for r in self.resources if r.urn == urn and not r.delete), None)

    def plain_secrets(self, values: Iterable[str]) -> list[str]:
        """Where a known secret value sits unmarked in this state (see ``plain_secrets``)."""
        known = list(values)
        found = plain_secrets(self.provider_config, known, "provider")
        for res in self.resources:
            found += plain_secrets(res.inputs, known, f"{res.urn}.inputs")
            found += plain_secrets(res.outputs, known, f"{res.urn}.outputs")
        return found


@dataclass(frozen=True)
class Alias:
    """One alias of a registration: a whole ``urn``, or the parts that differ from the resource's
    (an empty part keeps the resource's own; ``no_parent`` drops its parent)."""

    urn: str = ""
    name: str = ""
    type: str = ""
    parent: str = ""
    no_parent: bool = False
    stack: str = ""
    project: str = ""


@dataclass
class Goal:
    """One resource as the program registers it (a ``RegisterResourceRequest``, decoded).

    ``protect`` and ``retain_on_delete`` are None when the program left them unset; the
    ``replacement_trigger`` is None when there is none (a null).
    """

    urn: str
    type: str
    name: str
    properties: Properties
    custom: bool = True
    parent: str = ""
    dependencies: list[str] = field(default_factory=list)
    property_dependencies: dict[str, list[str]] = field(default_factory=dict)
    additional_secret_outputs: list[str] = field(default_factory=list)
    delete_before_replace: bool | None = None
    aliases: list[Alias] = field(default_factory=list)
    import_id: str = ""
    protect: bool | None = None
    retain_on_delete: bool | None = None
    deleted_with: str = ""
    replace_with: list[str] = field(default_factory=list)
    ignore_changes: list[str] = field(default_factory=list)
    replace_on_changes: list[str] = field(default_factory=list)
    replacement_trigger: Any = None
    provider: str = ""
    """``ResourceOptions(provider=...)``'s reference (``<urn>::<id>``), "" for the default."""
