"""How a request body is declared and read.

An operation's fields are a frozen dataclass (see ``bodies``), each field declared with
``given``: its ``Reader`` (how its wire value is parsed, and the JSON schema that documents it),
whether it is required, and its other names and spellings. The field's annotation is its type
once read, and a type checker holds it against the reader's: ``given(integer())`` declares an
``int | None``, ``given(text(), required=True)`` a ``str``. ``Body`` reads a request's parameters
into that dataclass (every failure naming its field, as ``params`` words them) and draws the
schema the OpenAPI document shows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, overload

from altostratus.emulator.errors import invalid, missing
from altostratus.emulator.reading.params import Params, port_number
from altostratus.emulator.reading.schemas import BOOL, TEXT, Schema, ref
from altostratus.emulator.reading.schemas import choice as choice_schema
from altostratus.emulator.vocabulary import REGIONS

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")
F = TypeVar("F", bound="DataclassInstance")

RULES = (
    "Fields left out, null or sent as an empty string are absent, unless a field says otherwise; "
    "fields not listed here are ignored."
)
REGION: Schema = {
    "type": "string",
    "description": f"{', '.join(REGIONS[:-1])} or {REGIONS[-1]} (any case)",
}
_GIVEN = "altostratus.given"


@dataclass(frozen=True)
class Reader(Generic[T]):
    """How one field's wire value is read: ``read(params, name, required)`` answers it, or None
    when it is absent (``required`` decides whether blank text is missing or invalid);
    ``nested`` is the body of each object of an array field."""

    schema: Schema
    read: Callable[[Params, str, bool], T | None]
    nested: Body[Any] | None = None


def text(*, blank: bool = False) -> Reader[str]:
    """Text; whitespace alone is refused (as missing when required) unless ``blank``."""
    return Reader(
        TEXT, lambda p, name, required: p.text(name, required=required, allow_empty=blank)
    )


def choice(*allowed: str) -> Reader[str]:
    """One of ``allowed``, in any case, answered as spelled there."""
    schema = choice_schema(*allowed)
    return Reader(schema, lambda p, name, required: p.choice(name, allowed, required=required))


def integer(*, minimum: int | None = None, maximum: int | None = None) -> Reader[int]:
    bounds = {"minimum": minimum, "maximum": maximum}
    schema: Schema = {"type": "integer", **{k: v for k, v in bounds.items() if v is not None}}
    return Reader(schema, lambda p, name, _: p.integer(name, minimum=minimum, maximum=maximum))


BOOLEAN: Reader[bool] = Reader(BOOL, lambda p, name, _: p.boolean(name))


def parsed(parser: Callable[[str, str], T], schema: Schema = TEXT) -> Reader[T]:
    """Text read by ``parser(name, text)``: one of the text parsers of ``formats``."""

    def read(params: Params, name: str, required: bool) -> T | None:
        value = params.text(name, required=required, allow_empty=False)
        return None if value is None else parser(name, value)

    return Reader(schema, read)


def port(schema: Schema) -> Reader[int]:
    """A port from 1 to 65535, as a number or as text."""

    def read(params: Params, name: str, _: bool) -> int | None:
        value = params.raw(name)
        if value is None:
            return None
        number = port_number(value)
        if number is None:
            raise invalid(name, f"The parameter {name} must be a port number from 1 to 65535")
        return number

    return Reader(schema, read)


def text_list(
    item: Callable[[str, str], str], *, what: str, schema: Schema = TEXT, allow_empty: bool = True
) -> Reader[tuple[str, ...]]:
    """Text values, each read by ``item``, as ``Params.text_list`` takes them."""

    def read(params: Params, name: str, _: bool) -> tuple[str, ...] | None:
        values = params.text_list(name, item, what=what, allow_empty=allow_empty)
        return None if values is None else tuple(values)

    return Reader(schema, read)


def structured(parser: Callable[[str, Any], T], schema: Schema) -> Reader[T]:
    """An array or an object (JSON text in a form body), read by ``parser(name, value)``."""

    def read(params: Params, name: str, _: bool) -> T | None:
        value = params.structured(name)
        return None if value is None else parser(name, value)

    return Reader(schema, read)


def objects(body: Body[F], *, what: str) -> Reader[tuple[F, ...]]:
    """An array of objects, each read as ``body`` reads a request (its failures name the
    object's own fields); ``what`` names the objects in the reason of a wrong shape."""

    def parse(name: str, value: Any) -> tuple[F, ...]:
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise invalid(name, f"The parameter {name} must be an array of {what}")
        return tuple(body.read(body.params(item)) for item in value)

    schema: Schema = {"type": "array", "items": ref(body.name)}
    return dataclasses.replace(structured(parse, schema), nested=body)


@dataclass(frozen=True)
class Given(Generic[T]):
    """One field's declaration (see ``given``)."""

    reader: Reader[T]
    required: bool = False
    alias: str | None = None
    spellings: Mapping[str, str] = field(default_factory=dict)
    empty: str | None = None
    about: str | None = None

    def schema(self) -> Schema:
        schema = self.reader.schema
        if self.about is not None:
            schema = {**schema, "description": self.about}
        if self.spellings:
            spelled = ", ".join(f"{alias} is {value}" for alias, value in self.spellings.items())
            schema = {**schema, "enum": [*schema["enum"], *self.spellings], "description": spelled}
        if self.empty is not None:
            schema = {**schema, "description": f"An empty string {self.empty}."}
        return schema


@overload
def given(
    reader: Reader[T],
    *,
    required: Literal[True],
    alias: str | None = None,
    about: str | None = None,
) -> T: ...


@overload
def given(
    reader: Reader[T],
    *,
    required: Literal[False] = False,
    alias: str | None = None,
    spellings: Mapping[str, str] | None = None,
    empty: str | None = None,
    about: str | None = None,
) -> T | None: ...


def given(
    reader: Reader[T],
    *,
    required: bool = False,
    alias: str | None = None,
    spellings: Mapping[str, str] | None = None,
    empty: str | None = None,
    about: str | None = None,
) -> Any:
    """A body field read by ``reader``: ``required`` (else None when absent); also sent as
    ``alias`` (both must agree when both are); with other ``spellings`` of its values
    (``{"inbound": "ingress"}``); ``empty`` says what an empty string means where it is a value
    (else it is an absent field); ``about`` describes it in the document."""
    declared = Given(reader, required, alias, dict(spellings or {}), empty, about)
    if required:
        return field(metadata={_GIVEN: declared})
    return field(default=None, metadata={_GIVEN: declared})


class Body(Generic[F]):
    """The body of one operation: the fields of ``typed`` and, for a ``regional`` operation,
    ``region`` (read by the wire layer, which holds it against the query's, not by the route).
    ``name`` names its schema (``typed``'s own name unless given)."""

    def __init__(self, typed: type[F], *, regional: bool = True, name: str | None = None) -> None:
        self.typed = typed
        self.regional = regional
        self.name = name or typed.__name__
        self.fields: dict[str, Given[Any]] = {
            declared.name: declared.metadata[_GIVEN] for declared in dataclasses.fields(typed)
        }
        self.aliases = {g.alias: name for name, g in self.fields.items() if g.alias is not None}
        self.required = tuple(name for name, g in self.fields.items() if g.required)
        self._reading = sorted(self.fields, key=lambda name: not self.fields[name].required)
        self._spellings = {name: g.spellings for name, g in self.fields.items() if g.spellings}
        self._empty = [name for name, g in self.fields.items() if g.empty is not None]
        self._nested = {
            name: g.reader.nested for name, g in self.fields.items() if g.reader.nested is not None
        }

    @property
    def names(self) -> frozenset[str]:
        """Every field name the body accepts, aliases included."""
        return frozenset(self.fields) | frozenset(self.aliases) | self._region

    @property
    def _region(self) -> frozenset[str]:
        return frozenset({"region"}) if self.regional else frozenset()

    def params(self, values: Mapping[str, Any], *, form: bool = False) -> Params:
        """``values`` as this body takes them; ``ignored`` also names the fields its nested
        objects do not take (``rules[0].colour``)."""
        params = Params(
            values,
            form=form,
            accepts=self.names,
            aliases=self.aliases,
            value_aliases=self._spellings,
            empty_is_value=self._empty,
        )
        for name, inner in self._nested.items():
            items = params.structured(name) if name in params else None
            for index, item in enumerate(items if isinstance(items, list) else []):
                if isinstance(item, dict):
                    ignored = inner.params(item).ignored
                    params.ignored.extend(f"{name}[{index}].{field}" for field in ignored)
        return params

    def read(self, params: Params) -> F:
        """The typed fields; the required ones are read first, so a missing one is named
        before any other fault."""
        values: dict[str, Any] = {}
        for name in self._reading:
            declared = self.fields[name]
            value = declared.reader.read(params, name, declared.required)
            if value is None and declared.required:
                raise missing(name)
            values[name] = value
        return self.typed(**values)

    def schema(self) -> Schema:
        properties = {name: declared.schema() for name, declared in self.fields.items()}
        for alias, name in self.aliases.items():
            described = f"Another name for {name}; when both are given they must agree."
            properties[alias] = {**properties[name], "description": described}
        if self.regional:
            properties["region"] = REGION
        schema: Schema = {"type": "object", "description": RULES, "properties": properties}
        if self.required:
            schema["required"] = list(self.required)
        return schema
