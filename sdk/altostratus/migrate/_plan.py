"""The translation: a source's state into adopted declarations, and what could not be carried.

Every resource of a carried type (``_kinds.CARRIED``) with an id becomes a declaration with
``adopt``, its inputs taken from the state. An input naming another declared resource's id is
written as a reference to it (``network_id=main.id``), and an object store's owner key as its
credential's ``access_key_id``. Everything else is left, with what it uses and what uses it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from altostratus.migrate._declarations import (
    Declaration,
    Reference,
    input_value,
    inputs_of,
    plain_value,
)
from altostratus.migrate._kinds import CARRIED, LOOKUPS, REFERENCES
from altostratus.migrate._names import name_declarations
from altostratus.migrate._rules import inline_rules
from altostratus.migrate._source import Source, SourceResource


@dataclass(frozen=True)
class Left:
    """A resource of the source that the program does not declare."""

    resource: SourceResource
    reason: str
    uses: tuple[SourceResource, ...]
    """What it refers to (by id or by the source's dependencies)."""
    used_by: tuple[SourceResource, ...]


@dataclass
class Migration:
    """The program to write and what the report says."""

    source: Source
    declarations: list[Declaration] = field(default_factory=list)
    left: list[Left] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def carried(self) -> list[SourceResource]:
        """The source's resources the program adopts (a firewall with its rules counts once)."""
        seen: dict[int, SourceResource] = {}
        for declaration in self.declarations:
            for origin in (declaration.origin, *declaration.also):
                seen.setdefault(id(origin), origin)
        return list(seen.values())

    def lookup_hint(self, resource: SourceResource) -> str | None:
        """How a program of ``altostratus`` reads what a data source (or a Pulumi ``get``)
        reads, if it can."""
        known = resource.id and resource.id != "-"
        name, id_ = json.dumps(resource.name), json.dumps(resource.id)
        if self.source.tool == "pulumi" and resource.type in CARRIED and known:
            return f"alto.{CARRIED[resource.type].resource}.get({name}, {id_})"
        function = LOOKUPS.get(resource.type)
        if function is None:
            return None
        return f"alto.{function}(id={id_})" if known else f"alto.{function}(...)"


def migrate(source: Source) -> Migration:
    """The declarations and the report of ``source``."""
    migration = Migration(source)
    notes = migration.notes
    by_type = sorted(
        (r for r in source.resources if r.type in CARRIED and r.id),
        key=lambda r: list(CARRIED).index(r.type),
    )
    for resource in by_type:
        kind = CARRIED[resource.type]
        declaration = Declaration(kind.resource, resource.name, resource.id, resource)
        declaration.inputs = inputs_of(resource, kind.inputs, notes)
        _note_dropped(resource, kind.not_carried, kind.unwritten, notes)
        migration.declarations.append(declaration)
        if resource.type == "civo_firewall":
            migration.declarations += inline_rules(declaration, notes)
        if "region" not in declaration.inputs:
            notes.append(
                f"{resource.label}: the state names no region, so the stack's "
                "`altostratus:region` applies"
            )
    _one_per_record(migration)
    _assign(migration.declarations, source.resources)
    _refer(migration)
    name_declarations(migration.declarations)
    carried = {id(resource) for resource in migration.carried}
    uses, used_by = _links(source.resources)
    for resource in source.resources:
        if id(resource) not in carried:
            reason = _reason(resource)
            found = (tuple(uses[id(resource)]), tuple(used_by[id(resource)]))
            migration.left.append(Left(resource, reason, *found))
    return migration


def _one_per_record(migration: Migration) -> None:
    """One declaration per record: a later one of the same resource and id is dropped, its
    source resource adopted with the first (``also``), and a note says so."""
    first: dict[tuple[str, str], Declaration] = {}
    replaced: dict[int, Declaration] = {}
    kept: list[Declaration] = []
    for declaration in migration.declarations:
        earlier = first.setdefault((declaration.resource, declaration.id), declaration)
        if earlier is declaration:
            kept.append(declaration)
            continue
        replaced[id(declaration)] = earlier
        if not declaration.what:
            earlier.also.append(declaration.origin)
        migration.notes.append(
            f"{declaration.label} holds the same record as {earlier.label} (id "
            f"`{declaration.id}`): one declaration adopts it, with the inputs of the first"
        )
    for declaration in kept:
        for name, value in declaration.inputs.items():
            if isinstance(value, Reference) and id(value.target) in replaced:
                declaration.inputs[name] = Reference(replaced[id(value.target)], value.attribute)
    migration.declarations = kept


def _note_dropped(
    resource: SourceResource, dropped: tuple[str, ...], unwritten: tuple[str, ...], notes: list[str]
) -> None:
    set_ = [name for name in dropped if plain_value(resource.values.get(name)) is not None]
    if set_:
        names = ", ".join(f"`{name}`" for name in set_)
        notes.append(f"{resource.label}: {names} not carried: the resource has no such input")
    if unwritten:
        names = " and ".join(f"`{name}`" for name in unwritten)
        notes.append(
            f"{resource.label}: its keys ({names}) are not written into the program; the "
            "adoption reads them from the service, and they stay secret in the stack"
        )


def _assign(declarations: list[Declaration], resources: list[SourceResource]) -> None:
    """A reserved IP's assignment (its ``instance_id``, or an assignment resource naming it)
    becomes its ``assign_to_id``: leaving it out would mean "unassigned", which the adoption
    refuses for an assigned address."""
    assignments = {
        r.values["reserved_ip_id"]: r.values.get("instance_id")
        for r in resources
        if r.type == "civo_instance_reserved_ip_assignment"
        and isinstance(r.values.get("reserved_ip_id"), str)
    }
    for declaration in declarations:
        if declaration.resource != "ReservedIp":
            continue
        values = declaration.origin.values
        assigned = plain_value(values.get("instance_id")) or assignments.get(declaration.id)
        if isinstance(assigned, str) and assigned:
            checked = input_value(assigned, "text", declaration.label, "instance_id")
            declaration.inputs["assign_to_id"] = checked


def _refer(migration: Migration) -> None:
    """Ids of declared resources as references; an owner key as its credential's output."""
    by_id = {(d.resource, d.id): d for d in migration.declarations}
    sources = {r.id: r for r in migration.source.resources if r.id}
    keys = {
        d.origin.values.get("access_key_id"): d
        for d in migration.declarations
        if d.resource == "ObjectStoreCredential"
        and isinstance(d.origin.values.get("access_key_id"), str)
    }
    for declaration in migration.declarations:
        for name, value in list(declaration.inputs.items()):
            if name not in REFERENCES or not isinstance(value, str):
                continue
            target = next(
                (by_id[(r, value)] for r in REFERENCES[name] if (r, value) in by_id), None
            )
            if target is not None:
                declaration.inputs[name] = Reference(target)
                continue
            named = sources.get(value)
            what = f"{named.label} (not carried)" if named else "a record the source does not hold"
            if name == "network_id" and named is None:
                what += ", perhaps the region's default network"
            migration.notes.append(
                f"{declaration.label}: `{name}` names {what}; its id is written as text"
            )
        if declaration.resource == "ObjectStore":
            key = declaration.origin.values.get("access_key_id")
            owner = keys.get(key) if isinstance(key, str) else None
            if owner is not None:
                declaration.inputs["access_key_id"] = Reference(owner, "access_key_id")
            else:
                migration.notes.append(
                    f"{declaration.label}: its owner's key is left to the adoption read "
                    "(no credential of the source holds it)"
                )


def _reason(resource: SourceResource) -> str:
    if resource.secret_id:
        return "the state marks its id sensitive, so it is neither written nor adopted"
    if not resource.id:
        return "the state holds no id for it"
    if resource.type == "civo_instance_reserved_ip_assignment":
        return "an assignment, not a resource: the reserved IP's `assign_to_id` carries it"
    if resource.service_kind is not None:
        return f"altostratus has no {resource.service_kind.replace('_', ' ')} resource"
    return "not a resource of the service's provider"


def _links(
    resources: list[SourceResource],
) -> tuple[dict[int, list[SourceResource]], dict[int, list[SourceResource]]]:
    """What each resource uses and what uses it, in the source's order (keyed by ``id()``): a
    resource uses another whose id is among its values, or whose address is among the
    dependencies the source records. Terraform records a dependency on a resource of
    ``count`` or ``for_each`` by its address without the instance key, meaning every instance:
    when the resource names some of those instances by id, it uses those; otherwise all of
    them. One pass over the source, through indexes of ids and addresses."""
    by_id: dict[str, list[SourceResource]] = {}
    by_address: dict[str, list[SourceResource]] = {}
    instances: dict[str, list[SourceResource]] = {}
    for resource in resources:
        if resource.id:
            by_id.setdefault(resource.id, []).append(resource)
        by_address.setdefault(resource.address, []).append(resource)
        unindexed = _unindexed(resource.address)
        if unindexed != resource.address:
            instances.setdefault(unindexed, []).append(resource)
    order = {id(resource): number for number, resource in enumerate(resources)}
    uses: dict[int, list[SourceResource]] = {}
    used_by: dict[int, list[SourceResource]] = {id(resource): [] for resource in resources}
    for resource in resources:
        found: dict[int, SourceResource] = {}
        for text in set(_texts(resource.values)):
            found.update((id(other), other) for other in by_id.get(text, ()))
        named = {_unindexed(other.address) for other in found.values()}
        for address in resource.depends_on:
            found.update((id(other), other) for other in by_address.get(address, ()))
            if address not in named:
                found.update((id(other), other) for other in instances.get(address, ()))
        found.pop(id(resource), None)
        uses[id(resource)] = sorted(found.values(), key=lambda other: order[id(other)])
        for other in uses[id(resource)]:
            used_by[id(other)].append(resource)
    return uses, used_by


def _unindexed(address: str) -> str:
    """A Terraform address without its instance key: what ``depends_on`` lists."""
    return re.sub(r"\[[^\]]*\]$", "", address)


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
