"""The Python front end's side of the plugin: registering a resource as
``altostratus:index:<Name>``, the names it crosses the wire under, the lookups through Invoke.

The resource classes are the dynamic resources' own (their typed constructors, ``get``,
``adopt``); ``AltostratusResource._register`` hands them here when they go through the plugin.
The engine then calls the plugin process (``pulumi-resource-altostratus``) of their provider:
the default one, configured by the stack's ``altostratus:*`` keys, or the ``altostratus.Provider``
given in their options.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import pulumi
import pulumi.runtime

from altostratus._version import package_version
from altostratus.plugin import names
from altostratus.providers._inputs import NAME_PREFIX

F = TypeVar("F", bound=Callable[..., Any])


@functools.cache
def _wire_names() -> dict[str, str]:
    """Every property name the schema has, by its Python spelling."""
    schema = names.schema()
    found: set[str] = set()
    for resource in schema["resources"].values():
        found |= set(resource.get("inputProperties", {})) | set(resource.get("properties", {}))
    for nested in schema["types"].values():
        found |= set(nested.get("properties", {}))
    return {names.snake(name): name for name in found}


@functools.cache
def _program_names() -> dict[str, str]:
    return {wire: program for program, wire in _wire_names().items()}


def wire_name(prop: str) -> str:
    """A Python property name as the plugin's schema spells it (hidden ones unchanged)."""
    return _wire_names().get(prop, prop)


def program_name(prop: str) -> str:
    return _program_names().get(prop, prop)


def version_options() -> pulumi.ResourceOptions:
    """The plugin version every registration asks for: the package's."""
    return pulumi.ResourceOptions(version=package_version())


def register(
    resource: pulumi.CustomResource,
    resource_name: str,
    props: dict[str, Any],
    opts: pulumi.ResourceOptions,
) -> None:
    """Register ``resource`` (an ``AltostratusResource``) as ``altostratus:index:<Name>``; the
    plugin names automatic names after the URN, so the dynamic form's name prefix is left out."""
    given = {key: value for key, value in props.items() if key != NAME_PREFIX}
    kind = public_base(type(resource)).__name__
    type_token = names.token(kind)
    # As the schema's aliases say: a dynamic resource of the same name becomes this one.
    aliases = pulumi.ResourceOptions(
        aliases=[pulumi.Alias(type_=f"pulumi-python:dynamic/{names.PACKAGE}:{kind}")]
    )
    merged = pulumi.ResourceOptions.merge(
        pulumi.ResourceOptions.merge(version_options(), aliases), opts
    )
    pulumi.CustomResource.__init__(resource, type_token, resource_name, given, merged)


def public_base(cls: type[Any]) -> type[Any]:
    """The ``altostratus`` class of a resource class (``altostratus.plugin.Network``'s is
    ``altostratus.Network``)."""
    while cls.__module__.startswith("altostratus.plugin"):
        cls = cls.__mro__[1]
    return cls


@functools.cache
def through_invoke(function: F) -> F:
    """A lookup of ``altostratus.lookups`` answered by the plugin (Invoke of
    ``altostratus:index:get<Name>``): by the provider of its ``opts`` when they name one, an
    ``altostratus.Provider``, else by the default provider (the stack's configuration)."""
    kind = function.__name__.removeprefix("get_").title().replace("_", "")
    function_token = names.token(f"get{kind}")
    signature = inspect.signature(function)
    returned = typing.get_type_hints(function)["return"]

    @functools.wraps(function)
    def invoked(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        opts = bound.arguments.pop("opts", None)
        given = {key: value for key, value in bound.arguments.items() if value is not None}
        inputs = names.function_properties(function_token, "inputs")
        outputs = names.function_properties(function_token, "outputs")
        answer = pulumi.runtime.invoke(
            function_token, names.to_wire(given, inputs), invoke_options(function, opts)
        )
        values = names.from_wire(dict(answer.value or {}), outputs)
        return result_of(returned, values, outputs)

    return typing.cast(F, invoked)


def output_form(invoked: Callable[..., Any], like: F) -> F:
    """The ``_output`` form of a lookup through the plugin, typed as ``like`` (the lookup's own
    ``_output`` form): its arguments as Inputs, run once they are known."""
    from altostratus.lookups._find import lifted

    @functools.wraps(like)
    def lifted_form(*args: Any, **inputs: Any) -> Any:
        bound = inspect.signature(like).bind(*args, **inputs)
        opts = bound.arguments.pop("opts", None)
        return lifted(invoked, opts=opts, **bound.arguments)

    return typing.cast(F, lifted_form)


def invoke_options(lookup: Callable[..., Any], opts: Any) -> pulumi.InvokeOptions:
    """The options of a lookup's Invoke: the plugin's version, and the provider ``opts`` name,
    which must be an ``altostratus.Provider``."""
    from altostratus.lookups._find import options_given

    opts = options_given(lookup, opts)
    provider = getattr(opts, "provider", None)
    if provider is not None and getattr(provider, "package", None) != names.PACKAGE:
        raise TypeError(
            f"{lookup.__name__}: opts.provider must be an altostratus.Provider, not a provider "
            f"of {getattr(provider, 'package', type(provider).__name__)!r}"
        )
    return pulumi.InvokeOptions.merge(pulumi.InvokeOptions(version=package_version()), opts)


def result_of(returned: Any, values: dict[str, Any], outputs: dict[str, Any]) -> Any:
    """An Invoke's answer as the lookup's result type."""
    if hasattr(returned, "of"):
        secret = tuple(names.snake(key) for key, spec in outputs.items() if spec.get("secret"))
        return returned.of(str(values.pop("id", "")), values, secret)
    if hasattr(returned, "model_validate"):
        return returned.model_validate(values)
    hints = typing.get_type_hints(returned)
    fields: dict[str, Any] = {}
    for name, hint in hints.items():
        value = values.get(name)
        item = (typing.get_args(hint) or (None,))[0]
        if isinstance(value, list) and hasattr(item, "model_validate"):
            value = [item.model_validate(entry) for entry in value]
        fields[name] = value
    return returned(**fields)
