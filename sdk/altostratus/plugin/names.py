"""Property names on the plugin's wire (the schema's camelCase) and in the declarations
(snake_case): the one place that maps them.

The schema (``schema.json``, package data, written by ``python -m tools.schema``) names every
property ``camel(field)``; ``snake`` turns such a name back. Values are converted by walking the
schema: a resource's properties, the nested types they refer to (``FirewallInlineRule``,
``LoadBalancerBackend``), arrays' items and maps' values, so that a map's own keys (a load
balancer's ``features``, the service's rule records) are left as they are. Keys the schema does
not name (the providers' hidden properties, ``__name_prefix``) pass unchanged.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from typing import Any

PACKAGE = "altostratus"


def camel(name: str) -> str:
    """``cidr_v4`` as ``cidrV4``: a property's name in the schema."""
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def snake(name: str) -> str:
    """``cidrV4`` as ``cidr_v4``: a property's name in the declarations."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def token(name: str) -> str:
    """``Network`` as ``altostratus:index:Network``."""
    return f"{PACKAGE}:index:{name}"


@functools.cache
def schema() -> dict[str, Any]:
    """The package schema, as shipped."""
    text = resources.files(PACKAGE).joinpath("schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def resource_properties(type_token: str) -> dict[str, Any]:
    """Every property of a resource (outputs and inputs) by its wire name, with its spec: an
    input's when it is both (an output echoing a nested input keeps the input's names)."""
    spec = schema()["resources"][type_token]
    return {**spec.get("properties", {}), **spec.get("inputProperties", {})}


def function_properties(function_token: str, part: str) -> dict[str, Any]:
    """A function's ``inputs`` or ``outputs`` properties by wire name."""
    spec = schema()["functions"][function_token].get(part) or {}
    properties: dict[str, Any] = spec.get("properties", {})
    return properties


def config_properties() -> dict[str, Any]:
    """The provider's configuration by wire name (``apiKey``)."""
    variables: dict[str, Any] = schema()["config"]["variables"]
    return variables


def to_wire(values: dict[str, Any], properties: dict[str, Any]) -> dict[str, Any]:
    """Declaration-named values (snake_case keys, at any depth the schema describes) as the
    schema names them."""
    return _object(values, properties, wire=True)


def from_wire(values: dict[str, Any], properties: dict[str, Any]) -> dict[str, Any]:
    """Wire-named values as the declarations name them."""
    return _object(values, properties, wire=False)


def _object(values: dict[str, Any], properties: dict[str, Any], *, wire: bool) -> dict[str, Any]:
    converted: dict[str, Any] = {}
    for key, value in values.items():
        name = camel(key) if wire else key
        if name not in properties:
            converted[key] = value
            continue
        converted[name if wire else snake(key)] = _value(value, properties[name], wire=wire)
    return converted


def _value(value: Any, spec: dict[str, Any], *, wire: bool) -> Any:
    ref = spec.get("$ref", "")
    if ref.startswith("#/types/") and isinstance(value, dict):
        nested = schema()["types"][ref.removeprefix("#/types/")]
        return _object(value, nested.get("properties", {}), wire=wire)
    if spec.get("type") == "array" and isinstance(value, list):
        return [_value(item, spec.get("items", {}), wire=wire) for item in value]
    if spec.get("type") == "object" and isinstance(value, dict):
        if "properties" in spec:
            return _object(value, spec["properties"], wire=wire)
        items = spec.get("additionalProperties", {})
        return {key: _value(item, items, wire=wire) for key, item in value.items()}
    return value
