"""What each route reads of a request body is what its body declaration (``bodies``, which the
OpenAPI document shows) says the body holds.

Each route that changes something is run with a body holding every field its declaration
documents (valid values) over a stand-in state, while the parameters record each name the route
asks for. Changing a field's name in the route alone, or in the declaration alone, fails here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest.mock import MagicMock

import pytest

from altostratus.emulator.call import Call, Route
from altostratus.emulator.params import Params
from altostratus.emulator.routes import ROUTES

#: Read for every call by the wire layer, not by the routes.
READ_BY_THE_WIRE = {"region"}
#: Documented fields a route accepts without reading: load balancers are the only kind a
#: reserved IP is assigned to.
ACCEPTED_UNREAD = {("ReservedIpAction", "assign_to_type")}

#: Valid values of the documented properties whose text has a form (other text is "a-name").
SAMPLES: dict[str, Any] = {
    "cidr_v4": "10.20.0.0/24",
    "nameservers_v4": "192.0.2.53",
    "cidr": ["10.0.0.0/8"],
    "start_port": "80",
    "end_port": "81",
    "backends": [{"ip": "10.0.0.2", "protocol": "TCP", "source_port": 80, "target_port": 80}],
    "url": "http://127.0.0.1:9/hook",
    "events": ["*"],
    "rules": [{"protocol": "tcp", "start_port": "22"}],
}


def _sample(name: str, schema: dict[str, Any]) -> Any:
    if "enum" in schema:
        return schema["enum"][0]
    if name in SAMPLES:
        return SAMPLES[name]
    kind = schema.get("type")
    if kind == "boolean":
        return True
    if kind == "integer":
        return max(schema.get("minimum", 1), 1)
    return "a-name"


class _Asked(dict[str, Any]):
    """Parameter values that remember each name asked for."""

    def __init__(self, values: dict[str, Any]) -> None:
        super().__init__(values)
        self.asked: set[str] = set()

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        self.asked.add(name)
        return super().get(name, default)

    def __contains__(self, name: object) -> bool:
        self.asked.add(str(name))
        return super().__contains__(name)

    def __getitem__(self, name: str) -> Any:
        self.asked.add(name)
        return super().__getitem__(name)


def _changing_routes() -> Iterator[Route]:
    seen = set()
    for route in ROUTES:
        if route.method != "GET" and (route.method, route.path) not in seen:
            seen.add((route.method, route.path))
            yield route


def _asked_by(route: Route, body: dict[str, Any]) -> set[str]:
    params = Params({}, form=False)
    values = _Asked(body)
    params._values = values
    call = Call(MagicMock(), MagicMock(), "LON1", params, {}, MagicMock())
    path_values = ["id-1"] * route.path.count("{")
    try:
        route.handler(call, *path_values)
    except Exception as error:
        reason = f"{route.method} {route.path} refused the sample body: {error!r}"
        raise AssertionError(reason) from error
    return values.asked


def _documented(route: Route) -> dict[str, Any]:
    """The body's fields by their own names (an alias is read under the name it stands for)."""
    return dict(route.accepts.fields)


@pytest.mark.parametrize("route", list(_changing_routes()), ids=lambda r: f"{r.method} {r.path}")
def test_a_route_reads_exactly_the_properties_its_body_schema_documents(route: Route) -> None:
    documented = _documented(route)
    body = {name: _sample(name, schema) for name, schema in documented.items()}
    asked = _asked_by(route, body)
    assert asked - set(documented) == set(), f"read but not documented in {route.body}"
    unread = {name for name in documented if (route.body, name) not in ACCEPTED_UNREAD}
    assert unread - asked - READ_BY_THE_WIRE == set(), f"{route.body} documents more"


def test_the_recording_sees_a_read_that_is_not_documented() -> None:
    route = next(r for r in ROUTES if (r.method, r.path) == ("POST", "/networks"))
    body = {name: _sample(name, schema) for name, schema in _documented(route).items()}
    assert "label" in _asked_by(route, body)
    assert "nope" not in _asked_by(route, body)
