"""Every store keeps the one contract of ``state.base.Store``: routes take a request's typed
fields and answer; stores build, change and remove records, each with the same calls, taking the
typed fields that ``bodies`` declares."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import typing
from pathlib import Path
from typing import Any

import pytest

from altostratus.emulator import routes as emulator_routes
from altostratus.emulator import state as emulator_state
from altostratus.emulator.clock import Clock
from altostratus.emulator.control.seed import check_shape
from altostratus.emulator.reading.bodies import BODIES
from altostratus.emulator.routes import ROUTES
from altostratus.emulator.state import State
from altostratus.emulator.state.base import Store
from altostratus.emulator.state.kinds import KINDS
from altostratus.emulator.state.table import Record


def _modules(package: Any) -> list[Any]:
    found = pkgutil.iter_modules(package.__path__, f"{package.__name__}.")
    return [importlib.import_module(module.name) for module in found]


def _stores() -> list[type[Store[Any, Any, Any]]]:
    found = {
        value
        for module in _modules(emulator_state)
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Store) and value is not Store
    }
    return sorted(found, key=lambda store: store.__name__)


def _names(call: Any) -> list[str]:
    """The parameters' names but the first (the record, named for its kind) and ``self``."""
    return list(inspect.signature(call).parameters)[2:]


def _typed(store: type[Store[Any, Any, Any]]) -> tuple[Any, ...]:
    """The store's record type and the types its ``create`` and ``update`` take."""
    (base,) = [b for b in store.__orig_bases__ if typing.get_origin(b) is Store]  # type: ignore[attr-defined]
    return typing.get_args(base)


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
        "PlatformEnvironments",
        "PlatformApplications",
        "ApplicationDeployments",
        "AppEnvironments",
        "Apps",
    }


def test_the_table_of_kinds_names_every_store_once_with_its_record_type() -> None:
    assert sorted(kind.store.__name__ for kind in KINDS) == [s.__name__ for s in _stores()]
    assert len({kind.name for kind in KINDS}) == len({kind.seed_key for kind in KINDS}) == 12
    for kind in KINDS:
        assert _typed(kind.store)[0] is kind.record, kind.name
        # The state's typed attribute is the store the table builds.
        assert typing.get_type_hints(State)[kind.attribute] is kind.store
        assert type(State(Clock()).store(kind)) is kind.store


def test_the_routes_and_the_seed_cover_every_kind_of_the_table() -> None:
    route_modules = {m.__name__.rsplit(".", 1)[1] for m in _modules(emulator_routes)}
    others = {"quota", "regions", "account", "call", "answers", "login"}
    assert route_modules - others == {kind.attribute for kind in KINDS}
    paths = {p + route.path for route in ROUTES if route.method == "POST" for p in route.prefixes}
    for kind in KINDS:
        assert kind.path in paths, kind.name
        assert check_shape({"accounts": [{kind.seed_key: [{}]}]})


@pytest.mark.parametrize("store", _stores(), ids=lambda store: store.__name__)
def test_every_store_writes_create_update_and_remove_with_the_base_parameters(
    store: type[Store[Any, Any, Any]],
) -> None:
    """``delete`` is the base's (it checks, then removes now or after the deleting time)."""
    for verb in ("create", "update", "remove"):
        assert getattr(store, verb) is not getattr(Store, verb), f"{store.__name__}.{verb}"
        assert _names(getattr(store, verb)) == _names(getattr(Store, verb)), verb
    assert store.delete is Store.delete


@pytest.mark.parametrize("store", _stores(), ids=lambda store: store.__name__)
def test_every_store_takes_the_typed_fields_of_a_declared_body(
    store: type[Store[Any, Any, Any]],
) -> None:
    record, create, update = _typed(store)
    assert issubclass(record, Record)
    made = typing.get_type_hints(store.create)
    assert (made["fields"], made["return"]) == (create, record)
    changed = typing.get_type_hints(store.update)
    record_parameter = list(inspect.signature(store.update).parameters)[1]
    assert (changed[record_parameter], changed["changes"]) == (record, update)
    for typed in (create, update):
        assert BODIES[typed.__name__].typed is typed, f"{typed.__name__} is no declared body"
        assert typed.__dataclass_params__.frozen  # type: ignore[attr-defined]


def test_a_record_holds_no_field_that_changes_in_place() -> None:
    """Every change is an assignment, which the state folder sees (no list, set or dict)."""
    mutable = []
    for store in _stores():
        record = _typed(store)[0]
        for field, hint in typing.get_type_hints(record).items():
            origin = typing.get_origin(hint) or hint
            if origin in (list, set, dict):
                mutable.append(f"{record.__name__}.{field}")
    assert mutable == []


def test_a_rule_is_a_value_its_firewall_replaces() -> None:
    from altostratus.emulator.state.firewalls import Rule

    assert dataclasses.is_dataclass(Rule) and Rule.__dataclass_params__.frozen  # type: ignore[attr-defined]


def _attributes(package: Any, names: tuple[str, ...]) -> list[str]:
    return [
        f"{module.__name__}:{node.lineno}"
        for module in _modules(package)
        for node in ast.walk(ast.parse(Path(module.__file__).read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in names
    ]


def test_routes_never_touch_the_records_of_a_store() -> None:
    assert _attributes(emulator_routes, ("records", "removals")) == []


def test_routes_read_no_parameter_themselves() -> None:
    """A route takes its body read into its typed fields, never the raw parameters."""
    assert _attributes(emulator_routes, ("params",)) == []
