"""The provider plugin's Pulumi package schema, from the declarations.

The same declarations as the reference (``tools/reference.py``) and the generated code
(``tools/codegen.py``): a resource's inputs are its ``<Name>Args`` fields and their rules
(``inputs_of``: required, replaces, secret), its outputs the annotated ``pulumi.Output``
attributes of its class (secret when named in ``_secret_outputs``), the descriptions the
docstrings. Each resource is ``altostratus:index:<Name>`` (aliased to its dynamic form's type,
``pulumi-python:dynamic/altostratus:<Name>``), each nested input a type
``altostratus:index:<Name>`` (``FirewallInlineRule``, ``LoadBalancerBackend``), each lookup a
function ``altostratus:index:get<Name>``; the configuration is every ``altostratus:*`` key the
providers read, described as docs/configuration.md describes it. Property names are the
declarations' in camelCase, as the schema's languages expect (``altostratus.plugin.names``,
which the plugin converts values with, spells them ``snake_case`` again). The document is
package data, ``sdk/altostratus/schema.json``:

    python -m tools.schema          # rewrite it
    python -m tools.schema --check  # exit 1 when it is stale

A test runs the check and checks the document against the declarations.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import sys
import typing
from collections.abc import Sequence
from pathlib import Path
from types import UnionType
from typing import Any

from altostratus import lookups
from altostratus.plugin.names import PACKAGE, camel, token
from altostratus.providers import _config
from altostratus.providers._inputs import REGION_DOC, Field, inputs_of
from altostratus.providers._resource import AltostratusResource
from tools.codegen import _nested_args, _resources
from tools.reference import attribute_docs, plain_type

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "sdk" / "altostratus" / "schema.json"
_CONFIGURATION = ROOT / "docs" / "configuration.md"
_PRIMITIVES = {"str": "string", "int": "integer", "bool": "boolean", "float": "number"}
_ANY = {"$ref": "pulumi.json#/Any"}
_CONFIG_TYPES = {
    "altostratus:apiKey": "string",
    "altostratus:apiUrl": "string",
    "altostratus:region": "string",
    "altostratus:requestDeadlineSeconds": "number",
    "altostratus:maxAnswerBytes": "integer",
    "altostratus:waitTimeoutSeconds": "number",
    "altostratus:requestTimeoutSeconds": "number",
    "altostratus:providerThreads": "integer",
    "altostratus:debug": "boolean",
}
_SECRET_CONFIG = frozenset({"altostratus:apiKey"})
RULE_ID_FORM = "<firewall_id>:<rule_id>"
"""The id ``pulumi import`` takes for a firewall rule: a rule is read under its firewall."""


PYTHON: dict[str, Any] = {
    "packageName": "altostratus.plugin",
    "inputTypes": "classes",
    "respectSchemaVersion": True,
}
"""How Pulumi's Python code generator writes for this package. Code written by ``pulumi import``
and ``pulumi convert`` imports the plugin's Python front end (``import altostratus.plugin as
altostratus``) and passes nested inputs as its ``<Name>Args`` classes, not dictionaries; a
generated SDK carries the package's version and asks the engine for the plugin of that version
(without ``respectSchemaVersion`` it says 0.0.0)."""
NPM_PACKAGE = "@altostratus/pulumi"
PULUMI_NODEJS = "3.270.0"
"""The ``@pulumi/pulumi`` the TypeScript SDK requires: no newer than the engine ``tools/engine``
pins, and within the range the engine's code generator asks for (``^3.269.0``)."""
NODEJS: dict[str, Any] = {
    "packageName": NPM_PACKAGE,
    "respectSchemaVersion": True,
    "dependencies": {"@pulumi/pulumi": PULUMI_NODEJS},
}
"""How Pulumi's Node.js code generator writes for this package: the TypeScript SDK
(``tools/sdks.py``) is the npm package ``@altostratus/pulumi`` at the package's version, and code
written by ``pulumi import`` and ``pulumi convert`` imports it by that name."""


def type_name(nested: type[Any]) -> str:
    """``FirewallInlineRuleArgs`` as ``FirewallInlineRule``."""
    return nested.__name__.removesuffix("Args")


def _split(text: str, separator: str) -> list[str]:
    """``text`` split on ``separator`` outside brackets."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if depth == 0 and text.startswith(separator, at):
            parts.append(text[start:at].strip())
            start = at + len(separator)
    return [*parts, text[start:].strip()]


def type_spec(annotation: str, nested: dict[str, str]) -> dict[str, Any]:
    """The schema type of a declared annotation (``Sequence[pulumi.Input[str]] | None``);
    ``nested``: the nested input classes' names and their types' tokens."""
    choices = [part for part in _split(plain_type(annotation), "|") if part != "None"]
    text = choices[0]  # ``FirewallInlineRuleArgs | FirewallInlineRuleArgsDict``: one type
    if text in _PRIMITIVES:
        return {"type": _PRIMITIVES[text]}
    if text == "Any":
        return dict(_ANY)
    if text in nested:
        return {"$ref": f"#/types/{nested[text]}"}
    found = re.fullmatch(r"(\w+)\[(.*)\]", text)
    if found and found[1] in ("Sequence", "list"):
        return {"type": "array", "items": type_spec(found[2], nested)}
    if found and found[1] == "dict":
        key, value = _split(found[2], ",")
        if key == "str":
            return {"type": "object", "additionalProperties": type_spec(value, nested)}
    raise TypeError(f"no schema type for the annotation {annotation!r}")


def _nested_tokens() -> dict[str, str]:
    return {cls.__name__: token(type_name(cls)) for cls in _nested_args()}


def _described(spec: dict[str, Any], description: str) -> dict[str, Any]:
    return {**spec, "description": description} if description else spec


def _input_spec(
    field: Field, annotation: str, doc: str, secret: bool, nested: dict[str, str]
) -> dict[str, Any]:
    spec = _described(type_spec(annotation, nested), doc)
    if field.replaces:
        spec["replaceOnChanges"] = True
    if secret:
        spec["secret"] = True
    return spec


def _state_inputs(
    resource: type[AltostratusResource[Any]], outputs: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    """What ``<Name>.get`` takes beside the id to find the record (its region, a rule's
    firewall): the keyword-only parameters of the class's ``get``."""
    parameters = inspect.signature(resource.get).parameters.values()
    names = [p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY]
    if not resource._provider_class.regional:
        names = [name for name in names if name != "region"]
    if not names:
        return None
    properties = {camel(name): outputs[camel(name)] for name in names}
    return {"description": "Where the record is found.", "type": "object", "properties": properties}


def resource_spec(resource: type[AltostratusResource[Any]]) -> dict[str, Any]:
    args_class = resource._args_class
    provider = resource._provider_class
    nested = _nested_tokens()
    fields = inputs_of(args_class)
    input_docs = attribute_docs(args_class)
    output_docs = attribute_docs(resource)
    annotations = inspect.get_annotations(resource)
    secrets = set(resource._secret_outputs)
    inputs = {
        camel(field.name): _input_spec(
            field,
            str(args_class.__annotations__[field.name]),
            input_docs.get(field.name) or (REGION_DOC if field.name == "region" else ""),
            field.secret or field.name in secrets,
            nested,
        )
        for field in fields
    }
    outputs: dict[str, dict[str, Any]] = {}
    for name in resource._output_names:
        doc = output_docs.get(name) or input_docs.get(name) or ""
        if not doc and name == "region":
            doc = "The region the record is in."
        output = _described(type_spec(str(annotations[name]), nested), doc)
        if name in secrets:
            output["secret"] = True
        outputs[camel(name)] = output
    # Always set: the required inputs (echoed), the name the check fills in, a regional
    # record's region.
    always = {field.name for field in fields if field.required}
    always |= {provider.naming} if provider.naming else set()
    always |= {"region"} if provider.regional else set()
    description = inspect.cleandoc(resource.__doc__ or "")
    if provider.read_under_reference:
        description += (
            f"\n\nImported by the id `{RULE_ID_FORM}`: "
            f"`pulumi import {token(resource.__name__)} <name> {RULE_ID_FORM}` "
            "(the rule is read under its firewall, in the provider's region)."
        )
    spec: dict[str, Any] = {
        "description": description,
        "properties": outputs,
        "required": [name for name in resource._output_names if name in always],
        "inputProperties": inputs,
        "requiredInputs": [camel(field.name) for field in fields if field.required],
        "aliases": [{"type": f"pulumi-python:dynamic/{PACKAGE}:{resource.__name__}"}],
    }
    spec["required"] = [camel(name) for name in spec["required"]]
    state = _state_inputs(resource, outputs)
    if state is not None:
        spec["stateInputs"] = state
    return spec


def _used_in(args_class: type[Any]) -> str:
    """Where a nested input without a docstring of its own is given: ``An item of a
    `Firewall`'s `ingressRules` and `egressRules`.``"""
    places = []
    for resource in _resources():
        annotations = resource._args_class.__annotations__
        names = [name for name, text in annotations.items() if args_class.__name__ in str(text)]
        if names:
            listed = " and ".join(f"`{camel(name)}`" for name in names)
            places.append(f"a `{resource.__name__}`'s {listed}")
    return f"An item of {' or '.join(places)}." if places else ""


def nested_spec(args_class: type[Any]) -> dict[str, Any]:
    docs = attribute_docs(args_class)
    nested = _nested_tokens()
    declared = dataclasses.fields(args_class)
    # A dataclass without a docstring gets its signature as ``__doc__``: not a description.
    doc = inspect.cleandoc(args_class.__doc__ or "")
    if doc.startswith(f"{args_class.__name__}("):
        doc = _used_in(args_class)
    return {
        "description": doc,
        "type": "object",
        "properties": {
            camel(field.name): _described(
                type_spec(str(field.type), nested), docs.get(field.name, "")
            )
            for field in declared
        },
        "required": [
            camel(field.name) for field in declared if field.default is dataclasses.MISSING
        ],
    }


def _model_type(model: Any, types: dict[str, Any]) -> dict[str, Any]:
    """A pydantic model of the client's (a region, the quota) as an object type, by reference."""
    name = model.__name__
    properties = {}
    for field_name, info in model.model_fields.items():
        properties[camel(field_name)] = _described(
            _real_type(info.annotation, types), info.description or ""
        )
    types[token(name)] = {
        "description": inspect.cleandoc(model.__doc__ or ""),
        "type": "object",
        "properties": properties,
    }
    return {"$ref": f"#/types/{token(name)}"}


def _real_type(annotation: Any, types: dict[str, Any]) -> dict[str, Any]:
    """The schema type of an evaluated annotation (a lookup's parameters and results)."""
    arguments = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, UnionType):
        return _real_type(arguments[0], types)
    if origin in (list, tuple, Sequence):
        return {"type": "array", "items": _real_type(arguments[0], types)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _real_type(arguments[1], types)}
    if annotation is Any:
        return dict(_ANY)
    if isinstance(annotation, type) and annotation.__name__ in _PRIMITIVES:
        return {"type": _PRIMITIVES[annotation.__name__]}
    if hasattr(annotation, "model_fields"):
        return _model_type(annotation, types)
    raise TypeError(f"no schema type for {annotation!r}")


def _lookups() -> list[tuple[str, Any]]:
    """``(Name, get_<name>)`` of every lookup, in ``lookups.__all__``'s order."""
    found = []
    for name in lookups.__all__:
        if name.startswith("get_") and not name.endswith("_output"):
            found.append(("".join(p.title() for p in name.split("_")[1:]), getattr(lookups, name)))
    return found


def function_spec(
    name: str, function: Any, types: dict[str, Any], resources: dict[str, Any]
) -> dict[str, Any]:
    hints = typing.get_type_hints(function)
    returned = hints.pop("return")
    hints.pop("opts", None)  # the Invoke's options, which the engine takes, not an input
    doc = inspect.cleandoc(function.__doc__ or "")
    inputs = {camel(p): _real_type(annotation, types) for p, annotation in hints.items()}
    spec: dict[str, Any] = {"description": doc}
    if inputs:
        spec["inputs"] = {"type": "object", "properties": inputs}
    resource = resources.get(name)
    if resource is not None and dataclasses.is_dataclass(returned):
        # ``Get<Name>Result``: the id and the resource's outputs, as the resource describes them.
        outputs = {"id": {"type": "string", "description": "The record's id."}}
        for field in dataclasses.fields(returned):
            if field.name != "id":
                outputs[camel(field.name)] = resource["properties"][camel(field.name)]
        spec["outputs"] = {"type": "object", "properties": outputs, "required": ["id"]}
    elif isinstance(returned, type) and dataclasses.is_dataclass(returned):
        docs = attribute_docs(returned)
        result = typing.get_type_hints(returned)
        spec["outputs"] = {
            "type": "object",
            "properties": {
                camel(key): _described(_real_type(value, types), docs.get(key, ""))
                for key, value in result.items()
            },
        }
    else:
        model = _model_type(returned, types)
        spec["outputs"] = types.pop(model["$ref"].removeprefix("#/types/"))
    return spec


def configuration() -> dict[str, dict[str, Any]]:
    """Every key the providers read, as ``<name>: its spec``, described by the guide's table."""
    table = _CONFIGURATION.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(altostratus:\w+)` \| (.+?) \| .+ \|$", table, re.MULTILINE))
    variables = {}
    for key in _config.CONFIG_KEYS:
        if key not in rows:
            raise LookupError(f"{_CONFIGURATION.name} has no row for {key}")
        said = rows[key][:1].upper() + rows[key][1:]
        spec: dict[str, Any] = {"type": _CONFIG_TYPES[key], "description": said}
        if key in _SECRET_CONFIG:
            spec["secret"] = True
        variables[key.removeprefix(f"{PACKAGE}:")] = spec
    return variables


def project(key: str) -> str:
    """A value of pyproject.toml's ``[project]`` (``version``, ``license``): the one place it is
    written."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    pattern = rf'^\[project\]$.*?^{key} = "([^"]+)"$'
    found = re.search(pattern, text, re.MULTILINE | re.DOTALL)
    if found is None:
        raise LookupError(f"pyproject.toml has no [project] {key}")
    return found[1]


def schema() -> dict[str, Any]:
    types = {token(type_name(cls)): nested_spec(cls) for cls in _nested_args()}
    resources = {cls.__name__: resource_spec(cls) for cls in _resources()}
    functions = {
        token(f"get{name}"): function_spec(name, function, types, resources)
        for name, function in _lookups()
    }
    variables = configuration()
    return {
        "name": PACKAGE,
        "displayName": "altostratus",
        "version": project("version"),
        "description": "The cloud service's networks, firewalls, load balancers, reserved IPs, "
        "object stores and webhooks.",
        "keywords": ["pulumi", PACKAGE, "category/cloud"],
        "license": project("license"),
        "config": {"variables": variables},
        "provider": {
            "description": "The altostratus provider: the service's URL, key and default region "
            "(each falls back as the configuration guide says).",
            "inputProperties": variables,
        },
        "types": dict(sorted(types.items())),
        "resources": {token(name): spec for name, spec in resources.items()},
        "functions": functions,
        "language": {"nodejs": NODEJS, "python": PYTHON},
    }


def rendered() -> str:
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = rendered()
    if "--check" in argv:
        if not SCHEMA.exists() or SCHEMA.read_text(encoding="utf-8") != text:
            print(f"{SCHEMA.name} is stale: run python -m tools.schema", file=sys.stderr)
            return 1
        return 0
    SCHEMA.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
