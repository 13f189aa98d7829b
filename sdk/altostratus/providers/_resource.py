"""The program side of every resource: turning ``<Name>Args`` and keywords into properties.

A resource class declares its outputs as annotated ``pulumi.Output`` attributes; they are seeded
as None in the properties so Pulumi exposes them, and the ones named in ``_secret_outputs`` are
registered as ``additional_secret_outputs``. Its inputs are its ``Args`` dataclass's fields; its
typed ``__init__`` is generated from them (see ``_codegen``).
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, ClassVar, Generic, TypeVar

import pulumi
import pulumi.dynamic

from altostratus.providers._base import Provider
from altostratus.providers._inputs import NAME_PREFIX

ArgsT = TypeVar("ArgsT")


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

    _provider_class: ClassVar[type[Provider[Any]]]
    _args_class: ClassVar[type[Any]]
    _secret_outputs: ClassVar[tuple[str, ...]] = ()
    _output_names: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        annotations = inspect.get_annotations(cls)
        cls._output_names = tuple(
            name
            for name, annotation in annotations.items()
            if not name.startswith("_") and "Output" in str(annotation)
        )

    def __init__(
        self,
        resource_name: str,
        args: ArgsT | None = None,
        opts: pulumi.ResourceOptions | None = None,
        **inputs: Any,
    ) -> None:
        """``inputs`` given as keywords (each resource's generated ``__init__`` lists them) add to
        ``args``, or replace its values; None means left out."""
        props: dict[str, Any] = plain(args) if args is not None else {}
        props.update({k: plain(v) for k, v in inputs.items() if v is not None})
        for name in self._output_names:
            props.setdefault(name, None)
        props[NAME_PREFIX] = resource_name
        secret_opts = pulumi.ResourceOptions(additional_secret_outputs=list(self._secret_outputs))
        super().__init__(
            self._provider_class(),
            resource_name,
            props,
            pulumi.ResourceOptions.merge(opts, secret_opts),
        )
