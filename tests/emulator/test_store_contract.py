"""Every store keeps the one contract of ``state.base.Store``: routes parse and answer; stores
build, change and remove records, each with the same calls."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import Any

import pytest

from altostratus.emulator import routes as emulator_routes
from altostratus.emulator import state as emulator_state
from altostratus.emulator.state.base import Store


def _modules(package: Any) -> list[Any]:
    found = pkgutil.iter_modules(package.__path__, f"{package.__name__}.")
    return [importlib.import_module(module.name) for module in found]


def _stores() -> list[type[Store[Any]]]:
    found = {
        value
        for module in _modules(emulator_state)
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Store) and value is not Store
    }
    return sorted(found, key=lambda store: store.__name__)


def _shape(call: Any, record: bool) -> list[tuple[str, str]]:
    """Each parameter's name and annotation; the record's, named for its kind, as ``record``."""
    parameters = list(inspect.signature(call).parameters.values())[1:]
    shape = [(p.name, str(p.annotation)) for p in parameters]
    return [("record", "R"), *shape[1:]] if record else shape


def test_there_is_a_store_for_each_kind_of_record() -> None:
    names = {store.__name__ for store in _stores()}
    assert names == {
        "Networks",
        "Firewalls",
        "LoadBalancers",
        "ReservedIps",
        "ObjectStores",
        "Credentials",
        "Webhooks",
    }


@pytest.mark.parametrize("store", _stores(), ids=lambda store: store.__name__)
def test_every_store_writes_create_update_and_remove_with_the_base_parameters(
    store: type[Store[Any]],
) -> None:
    """``delete`` is the base's (it checks, then removes now or after the deleting time)."""
    for verb, record in (("create", False), ("update", True), ("remove", True)):
        assert getattr(store, verb) is not getattr(Store, verb), f"{store.__name__}.{verb}"
        mine = _shape(getattr(store, verb), record)
        assert mine == _shape(getattr(Store, verb), record), f"{store.__name__}.{verb}"
    assert store.delete is Store.delete


def test_routes_never_touch_the_records_of_a_store() -> None:
    touching = [
        f"{module.__name__}:{node.lineno}"
        for module in _modules(emulator_routes)
        for node in ast.walk(ast.parse(Path(module.__file__).read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in ("records", "removals")
    ]
    assert touching == []
