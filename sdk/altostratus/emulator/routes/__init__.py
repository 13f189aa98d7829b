"""The service's route table: one module per collection.

Every PATCH operation also answers PUT (unless its path has a PUT of its own): the spec says
PATCH for object store and credential updates, and the service's official clients send PUT.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterable

from altostratus.emulator.routes import account, quota, regions
from altostratus.emulator.routes.call import Route, RouteTable
from altostratus.emulator.state.kinds import KINDS


def with_put_for_patch(routes: Iterable[Route]) -> list[Route]:
    """``routes``, each PATCH followed by the same operation under PUT."""
    routes = list(routes)
    taken = {(route.method, route.path) for route in routes}
    result = []
    for route in routes:
        result.append(route)
        if route.method == "PATCH" and ("PUT", route.path) not in taken:
            result.append(dataclasses.replace(route, method="PUT"))
    return result


def kind_routes() -> list[Route]:
    """The routes of every kind of the table of kinds: each kind's module here is named as its
    store (``routes/networks.py`` for ``State.networks``)."""
    found: list[Route] = []
    for kind in KINDS:
        table = importlib.import_module(f"{__name__}.{kind.attribute}").ROUTES
        if not isinstance(table, RouteTable):
            raise TypeError(f"{__name__}.{kind.attribute}.ROUTES is not a RouteTable")
        found += table
    return found


ROUTES: list[Route] = with_put_for_patch(
    [*kind_routes(), *quota.ROUTES, *regions.ROUTES, *account.ROUTES]
)
