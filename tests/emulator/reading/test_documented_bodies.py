"""What a route takes of a request body is what its body declaration (``bodies``, which the
OpenAPI document shows) says the body holds, typed as declared.

Each route that changes something takes its body as the last parameter, annotated with the
declared type; a body holding every field its declaration documents (valid values) is read into
that type with every field set, and the route, run over a stand-in state, hands it on to the
store. A field renamed in the declaration alone is a type error where a store reads it (mypy);
one left unread by its reader, or not handed on, fails here.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator
from typing import Any
from unittest.mock import MagicMock

import pytest

from altostratus.emulator.errors import BadRequest
from altostratus.emulator.reading.bodies import BODIES, INLINE_RULE, NetworkCreate
from altostratus.emulator.reading.fields import Body
from altostratus.emulator.routes import ROUTES
from altostratus.emulator.routes.call import Call, Route

#: Documented fields a route accepts without handing them on: load balancers are the only kind
#: a reserved IP is assigned to, and the action chooses the store's call.
ACCEPTED_UNREAD = {("ReservedIpAction", "assign_to_type"), ("ReservedIpAction", "action")}

#: Valid values of the documented properties whose text has a form (other text is "a-name").
SAMPLES: dict[str, Any] = {
    "cidr_v4": "10.20.0.0/24",
    "nameservers_v4": "192.0.2.53",
    "cidr": ["10.0.0.0/8"],
    "start_port": "80",
    "end_port": "81",
    "ports": "80-81",
    "backends": [{"ip": "10.0.0.2", "protocol": "TCP", "source_port": 80, "target_port": 80}],
    "url": "http://127.0.0.1:9/hook",
    "events": ["*"],
    "rules": [{"protocol": "tcp", "start_port": "22"}],
    "options": {"server_timeout": 60, "client_timeout": "30s"},
    "clusters": ["lon1-managed"],
    "repository": "https://example.com/app.git",
    "vars": {"DEBUG": "1"},
    "region": "LON1",
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


def _full(body: Body[Any]) -> dict[str, Any]:
    """A valid value for every field the body declares, by its own name."""
    return {name: _sample(name, given.schema()) for name, given in body.fields.items()}


def _changing_routes() -> Iterator[Route]:
    seen = set()
    for route in ROUTES:
        if route.body is not None and (route.method, route.path) not in seen:
            seen.add((route.method, route.path))
            yield route


CHANGING = list(_changing_routes())


def _id(route: Route) -> str:
    return f"{route.method} {route.path}"


def test_every_operation_that_changes_something_but_a_delete_has_a_body() -> None:
    bodiless = {
        _id(route)
        for route in ROUTES
        if route.method not in ("GET", "DELETE") and route.body is None
    }
    assert bodiless == {"POST /webhooks/{id}/test", "POST /apps/{org}/{name}/redeploy"}
    assert {route.accepts.name for route in CHANGING} == set(BODIES)


@pytest.mark.parametrize("route", CHANGING, ids=_id)
def test_a_route_takes_its_declared_body_as_its_last_parameter(route: Route) -> None:
    hints = typing.get_type_hints(route.handler)
    *_, last = [name for name in hints if name != "return"]
    assert hints[last] is route.body


@pytest.mark.parametrize("body", [*BODIES.values(), INLINE_RULE], ids=lambda body: body.name)
def test_the_schema_documents_exactly_the_declared_fields(body: Body[Any]) -> None:
    declared = {field.name for field in dataclasses.fields(body.typed)}
    region = {"region"} if body.regional else set()
    properties = set(body.schema()["properties"])
    assert properties == declared | set(body.aliases) | region == body.names
    assert set(body.schema().get("required", [])) == {
        field.name for field in dataclasses.fields(body.typed) if field.default is not None
    }


@pytest.mark.parametrize("body", [*BODIES.values(), INLINE_RULE], ids=lambda body: body.name)
def test_each_documented_field_is_read_under_its_name(body: Body[Any]) -> None:
    typed = body.read(body.params(_full(body)))
    assert isinstance(typed, body.typed)
    unread = [name for name in body.fields if getattr(typed, name) is None]
    assert unread == []


@pytest.mark.parametrize("body", BODIES.values(), ids=lambda body: body.name)
def test_a_missing_required_field_is_named(body: Body[Any]) -> None:
    for name in body.required:
        sent = {k: v for k, v in _full(body).items() if k != name}
        with pytest.raises(BadRequest) as refused:
            body.read(body.params(sent))
        assert refused.value.code == f"parameter_{name}_missing"


def _handed_on(route: Route) -> tuple[Any, list[Any]]:
    """The route's typed body, and every value the route handed to the stand-in state."""
    accepts = route.accepts
    typed = accepts.read(accepts.params(_full(accepts)))
    state = MagicMock()
    call = Call(state, MagicMock(), "LON1", {}, MagicMock())
    route.handler(call, *["id-1"] * route.path.count("{"), typed)
    given = [value for made in state.mock_calls for value in (*made.args, *made.kwargs.values())]
    return typed, given


@pytest.mark.parametrize("route", CHANGING, ids=_id)
def test_a_route_hands_every_field_of_its_body_on_to_the_store(route: Route) -> None:
    typed, given = _handed_on(route)
    if any(value is typed for value in given):
        return
    name = route.accepts.name
    lost = [
        field.name
        for field in dataclasses.fields(typed)
        if (name, field.name) not in ACCEPTED_UNREAD and getattr(typed, field.name) not in given
    ]
    assert lost == [], f"{_id(route)} does not hand on {lost}"


def test_the_hand_on_check_sees_a_route_that_drops_its_body() -> None:
    route = next(r for r in CHANGING if _id(r) == "POST /networks")

    def dropping(call: Call, fields: NetworkCreate) -> None:
        call.state.networks.create(call.account_id, call.region, call.effects, None)

    typed, given = _handed_on(dataclasses.replace(route, handler=dropping))
    assert not any(value is typed for value in given)
    assert typed.label not in given
