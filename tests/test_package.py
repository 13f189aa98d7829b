from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import altostratus
import altostratus.client
import altostratus.providers
import altostratus.testing
from altostratus import _exports
from altostratus.client import errors


def test_the_package_exports_every_resource_args_class_and_error_and_the_client() -> None:
    exported = set(altostratus.__all__)
    error_classes = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, errors.AltostratusError)
    }
    assert set(altostratus.providers.__all__) <= exported
    assert error_classes <= exported
    assert {"Client", "__version__"} <= exported


@pytest.mark.parametrize("package", [altostratus, altostratus.client, altostratus.testing])
def test_every_public_name_is_listed_once_and_resolves_to_its_home(package: object) -> None:
    source = Path(inspect.getfile(package)).read_text(encoding="utf-8")  # type: ignore[arg-type]
    homes = _exports.declared_exports(source)
    for name, home in homes.items():
        assert getattr(package, name) is getattr(importlib.import_module(home), name)
    assert set(homes) <= set(package.__all__)  # type: ignore[attr-defined]
    assert sorted(dir(package)) == sorted(package.__all__)  # type: ignore[attr-defined]


def test_resources_are_the_pulumi_resources_not_the_client_models() -> None:
    assert altostratus.Network is altostratus.providers.Network
    assert altostratus.Network is not altostratus.client.Network


def test_importing_the_package_or_its_command_line_does_not_import_pulumi() -> None:
    code = "import altostratus, altostratus.cli, sys; print('pulumi' in sys.modules)"
    answer = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert answer.stdout.strip() == "False"


def test_an_unknown_name_raises_attribute_error() -> None:
    with pytest.raises(AttributeError, match="Nope"):
        altostratus.Nope  # type: ignore[attr-defined]  # noqa: B018


def test_loading_the_resources_does_not_load_the_http_client() -> None:
    """A Pulumi program imports the resources but never calls the API itself."""
    code = (
        "import sys, altostratus as alto; alto.Network; alto.Webhook; "
        "print(sorted(m for m in ('httpx', 'altostratus.client._client') if m in sys.modules))"
    )
    answer = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert answer.stdout.strip() == "[]"
