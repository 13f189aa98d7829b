"""Arbitrary bodies and queries never make the service fail: every answer is a success or the
documented error body with a 4xx status."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from altostratus.emulator.openapi import document
from tests.support.service_api import Api

VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def body_name(operation: dict[str, Any]) -> str:
    content = operation.get("requestBody", {}).get("content", {})
    reference: str = content.get("application/json", {}).get("schema", {}).get("$ref", "")
    return reference.rsplit("/", 1)[-1]


OPERATIONS = [
    (method, path, body_name(operation))
    for path, operations in document()["paths"].items()
    for method, operation in operations.items()
]


def fields(name: str) -> list[str]:
    schemas = document()["components"]["schemas"]
    return [*sorted(schemas.get(name, {}).get("properties", {})), "region", "extra"]


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, str, dict[str, Any], bool, dict[str, str]]:
    method, path, name = draw(st.sampled_from(OPERATIONS))
    names = fields(name) if name else ["region"]
    body = draw(st.dictionaries(st.sampled_from(names), VALUES, max_size=len(names)))
    form = draw(st.booleans())
    if form:
        body = {k: v if isinstance(v, str) else repr(v) for k, v in body.items()}
    query = draw(
        st.dictionaries(
            st.sampled_from(["region", "page", "per_page"]), st.text(max_size=6), max_size=2
        )
    )
    return method, path, body, form, query


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(request=requests())
def test_no_body_makes_the_service_fail(
    wsgi_api: Api, request: tuple[str, str, dict[str, Any], bool, dict[str, str]]
) -> None:
    method, path, body, form, query = request
    network = wsgi_api.ok("GET", "/networks")[0]["id"]
    url = path.replace("{id}", network).replace("{firewall_id}", "x").replace("{rule_id}", "y")
    reply = wsgi_api.call(
        method.upper(), url, body if method != "get" else None, form=form, query=query
    )
    assert reply.status < 500, (method, url, body, reply.body)
    if reply.status >= 400:
        assert set(reply.body) == {"result", "code", "reason"} and reply.body["result"] == "failed"


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.dictionaries(
        st.sampled_from(
            ["protocol", "start_port", "end_port", "cidr", "direction", "label", "action"]
        ),
        VALUES,
        max_size=7,
    )
)
def test_no_rule_body_makes_the_service_fail(wsgi_api: Api, body: dict[str, Any]) -> None:
    network = wsgi_api.ok("GET", "/networks")[0]["id"]
    firewalls = wsgi_api.ok("GET", "/firewalls")
    if not firewalls:
        firewalls = [wsgi_api.ok("POST", "/firewalls", {"name": "fw", "network_id": network})]
    path = f"/firewalls/{firewalls[0]['id']}/rules"
    reply = wsgi_api.call("POST", path, body)
    assert reply.status in (200, 400, 403), reply.body
    rules = wsgi_api.ok("GET", path)
    reply = wsgi_api.call("PUT", f"{path}/{rules[0]['id']}", body)
    assert reply.status in (200, 400), reply.body
