"""Adoption: an existing record brought under a stack by its id, without deleting it.

``<Resource>.adopt(resource_name, id, args)`` declares the resource as usual, with the hidden
input ``__adopt_id``. Nothing is adopted unless asked, and adoption changes nothing on the
service:

- check: the name (or a network's label) must be given, so that no automatic name renames the
  record on adoption;
- create: instead of creating, the record is read by its id (in the inputs' region); it is
  adopted only when every input the program gives equals the record's value (an input whose
  absence means "cleared", a reserved IP's assignment, is compared even when left out), so the
  first ``pulumi up`` after the adoption finds nothing to change. Otherwise the create fails,
  naming each input that differs, and nothing is made, changed or deleted;
- diff: while the program still asks for the adoption, a change that would replace the resource
  is refused, as the replacement's create would adopt the same record again and the old one's
  delete would then remove it. Declaring the resource without ``adopt`` lifts this.

Once adopted, the resource is the stack's like any other: ``pulumi destroy`` deletes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from pulumi.dynamic import CheckFailure

from altostratus.providers._validate import contains_unknown

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.providers._inputs import Field

ADOPT_ID = "__adopt_id"
"""Hidden input: the id of the existing record to adopt instead of creating one."""


class Adopter(Protocol):
    """What adoption needs of a provider (``_base.Provider`` has it)."""

    @property
    def kind(self) -> str: ...

    @property
    def naming(self) -> str | None: ...

    @property
    def fields(self) -> tuple[Field, ...]: ...

    def _fetch(self, api: Client, id_: str, props: dict[str, Any]) -> dict[str, Any]: ...


class AdoptionRefused(ValueError):
    """The record cannot be adopted as the program declares it; the message says why."""


def check_adoption(provider: Adopter, news: dict[str, Any]) -> list[CheckFailure]:
    """Failures of an adoption's inputs: the id must be text, the name given."""
    adopt_id = news.get(ADOPT_ID)
    if adopt_id is None:
        return []
    if contains_unknown(adopt_id) or not isinstance(adopt_id, str) or not adopt_id:
        return [CheckFailure(ADOPT_ID, "the id to adopt must be known, non-empty text")]
    naming = provider.naming
    if naming is not None and news.get(naming) is None:
        reason = f"{naming} is required when adopting: give the {provider.kind}'s current {naming}"
        return [CheckFailure(naming, reason)]
    return []


def adopt(provider: Adopter, api: Client, inputs: dict[str, Any]) -> dict[str, Any]:
    """The live outputs of the record to adopt, when it matches the inputs."""
    id_ = str(inputs[ADOPT_ID])
    live = provider._fetch(api, id_, inputs)
    differences = []
    for field in provider.fields:
        wanted, found = inputs.get(field.name), live.get(field.name)
        if wanted is None and field.keep_when_absent:
            continue
        if found is None and field.keep_when_absent:
            continue  # not answered by the service: nothing to compare with
        if field.normalize(wanted) == field.normalize(found):
            continue
        if field.secret:
            differences.append(f"{field.name} differs")
        else:
            differences.append(f"{field.name} is {found!r}, the program gives {wanted!r}")
    if differences:
        raise AdoptionRefused(
            f"{'; '.join(differences)}: declare the values it has, adopt it, then change them"
        )
    return live


def refuse_replacing(provider: Adopter, news: dict[str, Any], replaces: list[str]) -> None:
    """Raise when a program that still adopts a record would replace it."""
    if replaces and news.get(ADOPT_ID):
        raise AdoptionRefused(
            f"the {provider.kind} {news[ADOPT_ID]} is declared with adopt, and changing "
            f"{', '.join(replaces)} replaces it: declare it without adopt first"
        )
