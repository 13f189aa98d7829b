"""Makes ``typing.get_type_hints`` work on classes built on Pulumi's, ours included.

Pulumi's Python SDK writes two hints that only a type checker can read:

- ``pulumi.Input`` is ``Union[T, Awaitable[T], "Output[T]"]``: the forward reference
  ``'Output[T]'`` is resolved in whatever module asks, so every module annotating with
  ``pulumi.Input[...]`` (ours, and users' programs) fails with ``name 'Output' is not defined``.
- ``pulumi.Resource`` annotates ``_aliases: "list[Input[str]]"`` while ``pulumi/resource.py``
  imports ``Input`` under ``TYPE_CHECKING`` only, so even ``pulumi.CustomResource`` fails with
  ``name 'Input' is not defined``.

This module is the one place touching Pulumi's namespaces, and it only completes them: the forward
reference is told the module it was written in (``pulumi.output``), and ``pulumi.resource`` gets
the ``Input`` and ``Inputs`` its ``TYPE_CHECKING`` block names, the very objects of
``pulumi.output``. Nothing already there is replaced, so a Pulumi release importing them at run
time makes this a no-op. Checked against the Pulumi Python SDK 3.264.0 and 3.272.0.
"""

from __future__ import annotations

import typing

import pulumi.output
import pulumi.resource


def complete_pulumi_hints() -> None:
    """Idempotent; run when ``altostratus.providers`` or ``altostratus.lookups`` is imported."""
    for argument in typing.get_args(pulumi.output.Input):
        if (
            isinstance(argument, typing.ForwardRef)
            and argument.__forward_arg__ == "Output[T]"
            and argument.__forward_module__ is None
        ):
            argument.__forward_module__ = pulumi.output.__name__
    for name in ("Input", "Inputs"):
        if not hasattr(pulumi.resource, name):
            setattr(pulumi.resource, name, getattr(pulumi.output, name))


complete_pulumi_hints()
