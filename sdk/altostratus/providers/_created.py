"""Whether a create's success answer names the record that was asked for.

A success answer need not come from the service that made the record: a proxy in between may
answer for it. What the client cannot read as a record at all is an ``OutcomeUnknownError``
already; this judges a record it could read, by the inputs that identify the resource (its
``naming`` input, else its required ones):

- an answer that carries them, equal to the inputs, names the record;
- one that carries one of them with another value does not;
- one that carries none of them (the service's answers may be thin: a webhook's is its id and
  ``result``) is read back by its id: a 404 means that it names no record. A kind whose answer
  is the record (``full_create_answer``) reads it here, judges the record read as above and keeps
  it instead of the answer (a read failing otherwise leaves the answer trusted: what follows the
  create reads the record again, and deletes it if that fails). Any other kind reads its record
  after the create anyway (``_settle``): a 404 there is judged by ``made_instead``.

``_base.Provider`` looks for a record whose answer does not name it, as for a lost answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from altostratus.client.errors import AltostratusError, NotFoundError

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.providers._inputs import Field


class Creator(Protocol):
    """What the judgement needs of a provider (``_base.Provider`` has it)."""

    @property
    def naming(self) -> str | None: ...

    @property
    def fields(self) -> tuple[Field, ...]: ...

    @property
    def full_create_answer(self) -> bool: ...

    @property
    def unique_lookup(self) -> bool: ...

    def _fetch(self, api: Client, id_: str, props: dict[str, Any]) -> dict[str, Any]: ...

    def _lookup(self, api: Client, inputs: dict[str, Any]) -> list[Any]: ...


def created_record(provider: Creator, api: Client, inputs: dict[str, Any], answer: Any) -> Any:
    """The record a create's ``answer`` (a client model with an ``id``) stands for: the answer
    when it names the record the ``inputs`` asked for, the record read back by its id when the
    answer carries nothing to tell (so what is stored is the record, secrets included), None
    when it names no such record."""
    verdict = _judge(provider, answer.model_dump(), inputs)
    if verdict is not None:
        return answer if verdict else None
    if not provider.full_create_answer:
        return answer  # read back after the create; see made_instead
    try:
        live = provider._fetch(api, str(answer.id), inputs)
    except NotFoundError:
        return None
    except AltostratusError:
        return answer
    if _judge(provider, live, inputs) is False:
        return None
    return type(answer).model_validate({**live, "id": answer.id})


def made_instead(provider: Creator, api: Client, inputs: dict[str, Any], answered: Any) -> Any:
    """After the record a create answered reads as 404: the one record matching the inputs under
    another id (the create made it, its answer named none), or None."""
    found = [record for record in provider._lookup(api, inputs) if record.id != answered.id]
    return found[0] if len(found) == 1 or (found and provider.unique_lookup) else None


def _judge(provider: Creator, values: dict[str, Any], inputs: dict[str, Any]) -> bool | None:
    """True: ``values`` carry every identifying input, equal; False: one differs; None: they
    carry none, or only some."""
    identifying = [
        field
        for field in provider.fields
        if inputs.get(field.name) is not None
        and (field.name == provider.naming or (provider.naming is None and field.required))
    ]
    carried = [field for field in identifying if values.get(field.name) is not None]
    for field in carried:
        if field.normalize(values[field.name]) != field.normalize(inputs[field.name]):
            return False
    return True if carried and len(carried) == len(identifying) else None
