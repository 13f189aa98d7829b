"""The program side of every resource: turning ``<Name>Args`` and keywords into properties.

A resource class declares its outputs as annotated ``pulumi.Output`` attributes; they are seeded
as None in the properties so Pulumi exposes them, and the ones named in ``_secret_outputs`` are
registered as ``additional_secret_outputs``. Its inputs are its ``Args`` dataclass's fields; its
typed ``__init__`` is generated from them (see ``tools/codegen.py`` in the repository).
"""

from __future__ import annotations

import dataclasses
import inspect
import weakref
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

import pulumi
import pulumi.dynamic
from pulumi.dynamic.dynamic import PROVIDER_KEY, serialize_provider
from pulumi.runtime.settings import get_monitor

from altostratus.providers._adopt import ADOPT_ID
from altostratus.providers._base import Provider
from altostratus.providers._inputs import NAME_PREFIX, READ_GIVEN

ArgsT = TypeVar("ArgsT")
ResourceT = TypeVar("ResourceT", bound="AltostratusResource[Any]")


def plain(value: Any) -> Any:
    """Args dataclasses (at any depth, inside Outputs too) as dicts without unset fields."""
    if isinstance(value, pulumi.Output):
        return value.apply(plain)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: plain(getattr(value, field.name))
            for field in dataclasses.fields(value)
            if getattr(value, field.name) is not None
        }
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


class AltostratusResource(pulumi.dynamic.Resource, Generic[ArgsT]):
    """Base of the eight resources; subclasses set the class variables below."""

    def translate_input_property(self, prop: str) -> str:
        if self._plugin_names:
            from altostratus.plugin import front

            return front.wire_name(prop)
        return prop

    def translate_output_property(self, prop: str) -> str:
        if self._plugin_names:
            from altostratus.plugin import front

            return front.program_name(prop)
        return prop

    _provider_class: ClassVar[type[Provider[Any]]]
    _args_class: ClassVar[type[Any]]
    _secret_outputs: ClassVar[tuple[str, ...]] = ()
    _output_names: ClassVar[tuple[str, ...]] = ()
    _through_plugin: ClassVar[bool] = False
    """Registered as ``altostratus:index:<Name>`` through the provider plugin (the classes of
    ``altostratus.plugin``), else the dynamic resource unless given an ``altostratus.Provider``."""
    _plugin_names: bool = False
    _dynamic_type: ClassVar[str] = ""
    """``pulumi-python:dynamic/altostratus:<Name>``: the dynamic resource's type."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in kwargs:  # a resource's class (``altostratus.plugin``'s keep their base's)
            cls._dynamic_type = f"pulumi-python:dynamic/{kwargs['module']}:{kwargs['name']}"
        annotations = inspect.get_annotations(cls)
        declared = tuple(
            name
            for name, annotation in annotations.items()
            if not name.startswith("_") and "Output" in str(annotation)
        )
        # A subclass declaring no outputs (``altostratus.plugin``'s) keeps its base's.
        if declared or not cls._output_names:
            cls._output_names = declared

    def __init__(
        self,
        resource_name: str,
        args: ArgsT | None = None,
        opts: pulumi.ResourceOptions | None = None,
        **inputs: Any,
    ) -> None:
        self._declare(resource_name, args, opts, **inputs)

    def _declare(
        self,
        resource_name: str,
        args: ArgsT | None = None,
        opts: pulumi.ResourceOptions | None = None,
        **inputs: Any,
    ) -> None:
        """Declare the resource: ``inputs`` given as keywords (each resource's generated
        ``__init__`` lists them) add to ``args``, or replace its values; None means left out.

        The generated ``__init__`` calls this, not ``super().__init__``: the Pulumi SDK records
        as a resource's source position the caller of the third ``__init__`` up from its own
        (``Resource``, ``CustomResource``, then the resource's class), which is then the line of
        the program that made the resource, in both front ends."""
        props: dict[str, Any] = plain(args) if args is not None else {}
        given = {k: plain(v) for k, v in inputs.items() if v is not None}
        for field in self._provider_class.fields:
            if field.alias is None or field.alias not in given:
                continue
            if field.name in given:
                raise TypeError(f"{field.alias} is another name of {field.name}: give one")
            given[field.name] = given.pop(field.alias)
        props.update(given)
        for name in self._output_names:
            props.setdefault(name, None)
        props[NAME_PREFIX] = resource_name
        self._register(resource_name, props, opts)

    def _register(
        self, resource_name: str, props: dict[str, Any], opts: pulumi.ResourceOptions | None
    ) -> None:
        secret_opts = pulumi.ResourceOptions(additional_secret_outputs=list(self._secret_outputs))
        if self._through_plugin or _plugin_provider(opts):
            from altostratus.plugin import front

            self._plugin_names = True
            front.register(
                self, resource_name, props, pulumi.ResourceOptions.merge(opts, secret_opts)
            )
            return
        # What ``pulumi.dynamic.Resource.__init__`` does, one ``__init__`` frame fewer, so that
        # the SDK records the program's line as the source position (see ``_declare``). The
        # provider holds no key and captures no Output: its pickle is plain text.
        props[PROVIDER_KEY] = serialize_provider(self._provider_class())
        pulumi.CustomResource.__init__(
            self,
            self._dynamic_type,
            resource_name,
            props,
            pulumi.ResourceOptions.merge(opts, secret_opts),
        )

    @classmethod
    def get(
        cls: type[ResourceT],
        resource_name: str,
        id: pulumi.Input[str],
        opts: pulumi.ResourceOptions | None = None,
        *,
        region: pulumi.Input[str] | None = None,
    ) -> ResourceT:
        """An existing resource, read into the program by its ``id`` and not managed by it.

        As the ``get`` of Pulumi's generated SDKs: the engine reads the resource (its read step,
        ``ResourceOptions(id=...)``) at every ``pulumi up`` and stores it as external, so
        ``pulumi destroy`` leaves it alone. ``region`` is where a regional resource lives (the
        configured region when left out); webhooks belong to the account and take none.
        """
        return cls._read_existing(resource_name, id, opts, {"region": region})

    @classmethod
    def adopt(
        cls: type[ResourceT],
        resource_name: str,
        id: str,
        args: ArgsT | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> ResourceT:
        """The resource declared by ``args``, taken over from the existing record ``id`` instead
        of created: the way to bring a resource made elsewhere (by hand, by the bridged Terraform
        provider) under the stack without deleting it.

        The first ``pulumi up`` adopts the record when every input given equals its value, and
        fails naming the inputs that differ otherwise; nothing is created, changed or deleted by
        the adoption. The name (a network's label) must be given. From then on the stack manages
        the resource, and ``pulumi destroy`` deletes it. Once adopted, declare it the usual way
        (``<Resource>(resource_name, args)``): while ``adopt`` stays, a change that replaces the
        resource is refused.
        """
        _adopted_once(cls, resource_name, id)
        resource = cls.__new__(cls)
        AltostratusResource.__init__(resource, resource_name, args, opts, **{ADOPT_ID: id})
        return resource

    @classmethod
    def _read_existing(
        cls: type[ResourceT],
        resource_name: str,
        id: pulumi.Input[str],
        opts: pulumi.ResourceOptions | None,
        where: dict[str, Any],
    ) -> ResourceT:
        """``get`` with the properties that locate the record (``where``; None is left out)."""
        regional = cls._provider_class.regional
        if not regional and where.get("region") is not None:
            raise ValueError(f"{cls.__name__} belongs to the account: get takes no region")
        props: dict[str, Any] = {name: None for name in cls._output_names}
        given = {key: value for key, value in where.items() if value is not None}
        props.update(given)
        props[READ_GIVEN] = given
        resource = cls.__new__(cls)
        resource._register(resource_name, props, pulumi.ResourceOptions.merge(opts, _at(id)))
        return resource


_adoptions: weakref.WeakKeyDictionary[Any, dict[tuple[str, str], str]] = weakref.WeakKeyDictionary()
"""The records adopted by each running program (by its monitor: a test process runs several):
``(kind, id)`` and the resource adopting it."""


def _adopted_once(cls: type[AltostratusResource[Any]], resource_name: str, id: str) -> None:
    """Refuse a record the program adopts twice (by both front ends, or twice by one): two
    resources would manage it, and the first destroy would delete it under the other."""
    kind = cls._provider_class.kind
    front = "altostratus.plugin" if cls._through_plugin else "altostratus"
    here = f"{front}.{cls._provider_class.__name__.removesuffix('Provider')} {resource_name!r}"
    monitor = get_monitor()
    if monitor is None:
        return
    try:
        adopted = _adoptions.setdefault(monitor, {})
    except TypeError:  # a monitor that takes no weak reference: no check
        return
    before = adopted.setdefault((kind, str(id)), here)
    if before != here:
        raise ValueError(
            f"the {kind} {id} is adopted twice, by {before} and by {here}: adopt it once"
        )


def _plugin_provider(opts: pulumi.ResourceOptions | None) -> bool:
    """Whether ``opts`` name an ``altostratus.Provider`` (``provider=``, or in ``providers=``)."""
    if opts is None:
        return False
    given: list[Any] = [opts.provider] if opts.provider is not None else []
    if isinstance(opts.providers, Mapping):
        given += list(opts.providers.values())
    elif opts.providers:
        given += [*opts.providers]
    return any(
        type(provider).__module__ == "altostratus.plugin.provider"
        and type(provider).__name__ == "Provider"
        for provider in given
    )


def _at(id: pulumi.Input[str]) -> pulumi.ResourceOptions:
    return pulumi.ResourceOptions(id=id)
