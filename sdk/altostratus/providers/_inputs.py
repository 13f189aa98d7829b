"""Input fields of a resource: validation, coercion, normalisation for diffs, auto-naming.

Each input is declared once, as a field of the resource's ``<Name>Args`` dataclass (keyword-only)
whose default is ``arg(...)``: its name and type are the field's, its rules the ``Field`` that
``arg`` records. A required input is declared ``dataclasses.field(metadata=required(...))``: it
has no default, so ``<Name>Args`` requires it, for type checkers too (they read ``field`` calls,
not ``arg``'s), as the ``Args`` classes of Pulumi's generated SDKs do.
The provider's ``fields`` are ``inputs_of(<Name>Args)``.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from altostratus.client._settings import region_code
from altostratus.providers import _validate
from altostratus.providers._validate import Validator, as_int

NAME_PREFIX = "__name_prefix"
"""Hidden input carrying the Pulumi resource name, the prefix of automatic names."""

READ_GIVEN = "__read"
"""Hidden property of a resource read with ``get``: the properties that located it.

The engine stores a read resource's inputs as ``get`` gave them (``ReadStep``) and, refreshing
an external resource, compares the inputs its provider's read returns with those
(``RefreshStep.Apply``, pkg/resource/deploy/step.go): a read of such a resource returns them
unchanged, so a refresh reports ``same`` unless the resource itself changed.
"""

_SUFFIX_ALPHABET = string.ascii_lowercase + string.digits


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Field:
    """One input of a resource.

    ``replaces``: the API cannot change it in place. ``keep_when_absent``: leaving the input out
    means "whatever the service has" (true for optional values the service fills in); when false,
    leaving it out asks for the value to be cleared (a reserved IP's assignment). ``secret``: kept
    out of the inputs realigned by a refresh. ``at_create``: read by the create only (the API has
    no way to change it): a change shows no difference and the state keeps the created value.
    """

    name: str
    validate: Validator
    required: bool = False
    replaces: bool = False
    normalize: Callable[[Any], Any] = _same
    coerce: Callable[[Any], Any] = _same
    keep_when_absent: bool = True
    secret: bool = False
    alias: str | None = None
    """Another keyword the resource's constructor takes for it (the bridged provider's name)."""
    at_create: bool = False


_RULES = "altostratus.input"


def arg(
    validate: Validator,
    *,
    replaces: bool = False,
    normalize: Callable[[Any], Any] = _same,
    coerce: Callable[[Any], Any] = _same,
    keep_when_absent: bool = True,
    secret: bool = False,
    alias: str | None = None,
    at_create: bool = False,
) -> Any:
    """An optional ``Args`` field (default None) carrying the input's rules (see ``Field``)."""
    rules = Field(
        "", validate, False, replaces, normalize, coerce, keep_when_absent, secret, alias, at_create
    )
    return dataclasses.field(default=None, metadata={_RULES: rules})


def required(
    validate: Validator,
    *,
    replaces: bool = False,
    normalize: Callable[[Any], Any] = _same,
    coerce: Callable[[Any], Any] = _same,
) -> dict[str, Field]:
    """The metadata of a required ``Args`` field, ``dataclasses.field(metadata=required(...))``:
    the input's rules (see ``Field``)."""
    return {_RULES: Field("", validate, True, replaces, normalize, coerce)}


def inputs_of(args_class: type[Any]) -> tuple[Field, ...]:
    """The inputs declared by an ``Args`` dataclass, in declaration order."""
    inputs = []
    for declared in dataclasses.fields(args_class):
        rules = declared.metadata.get(_RULES)
        if not isinstance(rules, Field):
            raise TypeError(f"{args_class.__name__}.{declared.name} is not declared with arg()")
        inputs.append(dataclasses.replace(rules, name=declared.name))
    return tuple(inputs)


def to_int(value: Any) -> Any:
    number = as_int(value)
    return value if number is None else number


def region_text(value: Any) -> Any:
    """A region as the API names it; anything else as it is (the check refuses it)."""
    return region_code(value) if isinstance(value, str) else value


def cidr_text(value: Any) -> Any:
    try:
        return str(ipaddress.ip_network(value, strict=False))
    except (TypeError, ValueError):
        return value


def cidr_set(value: Any) -> Any:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        return value
    return sorted({str(cidr_text(item)) for item in items})


def text_set(value: Any) -> Any:
    return sorted(set(value)) if isinstance(value, list) else value


def ip_list(value: Any) -> Any:
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    return value


def backend_set(value: Any) -> Any:
    if not isinstance(value, list):
        return value
    keys = []
    for backend in value:
        if not isinstance(backend, dict):
            return value
        keys.append(
            (
                str(backend.get("ip")),
                str(backend.get("protocol")).upper(),
                to_int(backend.get("source_port")),
                to_int(backend.get("target_port")),
                to_int(backend.get("health_check_port")) or None,
            )
        )
    return sorted(keys, key=repr)


PORT_RANGE_BOTH = "port_range cannot be given with start_port or end_port: give one or the other"


def expand_port_range(rule: dict[str, Any]) -> str | None:
    """Turn a rule's ``port_range`` ("80", "80-443", already valid) into its ``start_port`` and
    ``end_port``, in place, as the API takes them; why not, when the rule gives both forms. An
    unknown range (a preview) is left as it is."""
    given = rule.get("port_range")
    if given is None:
        rule.pop("port_range", None)
        return None
    if rule.get("start_port") is not None or rule.get("end_port") is not None:
        return PORT_RANGE_BOTH
    if isinstance(given, str) and _validate.port_range(given) is None:
        start, _, end = given.partition("-")
        rule["start_port"], rule["end_port"] = start.strip(), (end or start).strip()
        del rule["port_range"]
    return None


REGION_DOC = (
    "A region code the target serves (LON1, FRA1, NYC1, PHX1, ...; lower case is read as upper)."
)
"""What the reference says of every ``region`` input (declared by ``region_arg``)."""


def region_arg() -> Any:
    """The ``region`` input: the configured region when left out; changing it replaces."""
    return arg(_validate.region, replaces=True, normalize=region_text, coerce=region_text)


def auto_name(prefix: str, *, bucket: bool = False) -> str:
    """``<prefix>-<7 random lowercase letters and digits>``; a bucket-safe prefix when asked."""
    if bucket:
        prefix = bucket_safe(prefix, 48)
    suffix = "".join(secrets.choice(_SUFFIX_ALPHABET) for _ in range(7))
    return f"{prefix}-{suffix}"


def bucket_safe(name: str, length: int = 63) -> str:
    """``name`` in a bucket's alphabet (lower-case letters, digits, dashes), at most ``length``
    characters: how automatic names of object stores are made."""
    name = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-")[:length].strip("-")
    return name.removeprefix("xn--").strip("-") or "store"


AUTONAMING = "__autonaming"
"""Hidden input of a check, never kept: the engine's autonaming of the resource, as the provider
plugin receives it (``pulumi:autonaming`` in the stack's configuration): ``{"proposed_name":
<name>, "mode": "propose" | "enforce" | "disable"}``."""
