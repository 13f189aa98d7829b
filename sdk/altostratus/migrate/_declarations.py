"""What the generated program declares: one adopted resource per record, and references."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from altostratus.migrate._checks import check_text, refuse, texts
from altostratus.migrate._kinds import SHAPES
from altostratus.migrate._source import SourceResource, is_secret


@dataclass(eq=False)
class Declaration:
    """``<variable> = alto.<resource>.adopt(<name>, <id>, alto.<resource>Args(<inputs>))``."""

    resource: str
    name: str
    """The Pulumi resource name: the source's name."""
    id: str
    origin: SourceResource
    what: str = ""
    """What in the origin it is, when not the whole resource: ``ingress rule "ssh"``."""
    inputs: dict[str, Any] = field(default_factory=dict)
    """Each input's value: plain data, or a ``Reference``."""
    variable: str = ""
    """The Python variable; given once every declaration is known (see ``_names``)."""
    also: list[SourceResource] = field(default_factory=list)
    """Other resources of the source holding the same record (one id): adopted with it."""

    @property
    def label(self) -> str:
        return f"{self.origin.label} ({self.what})" if self.what else self.origin.label


@dataclass(frozen=True, eq=False)
class Reference:
    """An output of another declared resource, written ``<variable>.<attribute>``."""

    target: Declaration
    attribute: str = "id"


def plain_value(value: Any) -> Any:
    """The value as the program writes it, or None when there is nothing to write: Terraform
    writes unset text as ``""`` and unset lists as ``[]``; JSON numbers may come as floats."""
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def inputs_of(
    resource: SourceResource, pairs: tuple[tuple[str, str], ...], notes: list[str]
) -> dict[str, Any]:
    """The inputs the ``(attribute, input)`` pairs take from the resource's values; a secret
    value is left out, and said so."""
    inputs: dict[str, Any] = {}
    for attribute, name in pairs:
        value = plain_value(resource.values.get(attribute))
        if value is None:
            continue
        if is_secret(value):
            notes.append(
                f"{resource.label}: `{attribute}` is secret in the source, so it is not "
                "written; the adoption reads it from the service"
            )
            continue
        inputs[name] = input_value(value, SHAPES.get(name, "text"), resource.label, attribute)
    return inputs


_WANTED = {
    "text": "text",
    "boolean": "a boolean",
    "whole number": "a whole number",
    "port": "a port (text or a whole number)",
}


def input_value(value: Any, shape: str, where: str, field: str) -> Any:
    """``value`` as the input of its ``shape`` takes it (see ``SHAPES``), checked for
    writing (``_checks``); a value of another shape is refused."""
    if shape == "texts":
        return texts(value, where, field)
    if isinstance(value, float) and not math.isfinite(value):
        raise refuse(where, field, "is not a finite number")
    if shape == "boolean" and isinstance(value, bool):
        return value
    whole = isinstance(value, int) and not isinstance(value, bool)
    if shape == "whole number" and whole:
        return value
    if shape == "port" and whole:
        return str(value)
    if shape in ("text", "port") and isinstance(value, str):
        return check_text(value, where, field)
    raise refuse(where, field, f"is not {_WANTED[shape]}")
