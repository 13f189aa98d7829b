"""Tools reading hints at run time (``typing.get_type_hints``: dataclass helpers, validators,
documentation generators) can read every public class and function of the package."""

from __future__ import annotations

import inspect
import subprocess
import sys
import typing
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pulumi
import pytest

import altostratus
import altostratus.client
import altostratus.lookups
import altostratus.webhooks

MODULES = (altostratus, altostratus.client, altostratus.lookups, altostratus.webhooks)


def _public(module: ModuleType) -> Iterator[tuple[str, Callable[..., Any] | type]]:
    for name in getattr(module, "__all__", ()):
        value = getattr(module, name)
        if inspect.isclass(value):
            yield f"{module.__name__}.{name}", value
            if "__init__" in vars(value):
                yield f"{module.__name__}.{name}.__init__", value.__init__
        elif inspect.isfunction(value):
            yield f"{module.__name__}.{name}", value


def test_get_type_hints_reads_every_public_class_its_init_and_every_public_function() -> None:
    read: list[str] = []
    for module in MODULES:
        for name, value in _public(module):
            try:
                typing.get_type_hints(value)
            except Exception as error:  # pragma: no cover - the failure is the report
                pytest.fail(f"get_type_hints({name}) raised {type(error).__name__}: {error}")
            read.append(name)
    # The eight resources and their Args, each with a typed __init__, are among them.
    for resource in ("Network", "ObjectStore", "LoadBalancer", "Webhook"):
        assert f"altostratus.{resource}" in read
        assert f"altostratus.{resource}Args" in read
        assert f"altostratus.{resource}.__init__" in read


def test_hints_name_pulumi_inputs_and_outputs_as_the_classes_they_are() -> None:
    hints = typing.get_type_hints(altostratus.ObjectStore)
    assert hints["bucket_name"] == pulumi.Output[str]
    args = typing.get_args(typing.get_type_hints(altostratus.NetworkArgs)["label"])
    assert str in args and type(None) in args
    assert any(typing.get_origin(arg) is pulumi.Output for arg in args)
    # Pulumi's own base classes read too, once the package is imported.
    assert "_aliases" in typing.get_type_hints(pulumi.CustomResource)


def test_a_fresh_program_reads_the_hints_of_a_resource_and_of_its_own_class() -> None:
    program = (
        "import typing\n"
        "import pulumi\n"
        "import altostratus as alto\n"
        "typing.get_type_hints(alto.ObjectStore)\n"
        "class Mine:\n"
        "    size: pulumi.Input[int]\n"
        "print(typing.get_type_hints(Mine)['size'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "pulumi.output.Output" in done.stdout
