"""The OpenAPI document of the service's endpoints, served at ``/openapi.json``.

Built from the route table that serves (``routes.ROUTES``), the answers in ``openapi_schemas``,
the bodies in ``bodies`` and the decisions where the spec and the official clients disagree
(``decisions``, under ``x-official-clients``); the networking collections appear under both
``/v2/vpc`` and their original ``/v2`` paths.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from altostratus.emulator import bodies, decisions
from altostratus.emulator.call import Route
from altostratus.emulator.openapi_schemas import SCHEMAS, Schema, ref
from altostratus.emulator.params import MAX_PER_PAGE
from altostratus.emulator.routes import ROUTES

ERROR_STATUSES = {
    "400": "A parameter is missing, malformed or not allowed",
    "401": "Missing or unknown API key",
    "403": "The account's quota would be exceeded",
    "404": "No such resource in this account and region",
    "409": "A unique name is taken or the resource is in use",
    "415": "The body is neither JSON nor form-encoded",
    "429": "Rate limited; see Retry-After",
}


def _answer_schema(answer: str) -> Schema:
    if answer.startswith("["):
        return {"type": "array", "items": ref(answer.strip("[]"))}
    return ref(answer)


def _parameters(op: Route) -> list[dict[str, Any]]:
    params: list[dict[str, Any]] = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in re.findall(r"{(\w+)}", op.path)
    ]
    region: dict[str, Any] = {"name": "region", "in": "query", "schema": {"type": "string"}}
    if not op.regional:
        region["description"] = "Checked, and without effect: the collection is account-wide"
    params.append(region)
    if op.paged:
        integer = {"type": "integer", "minimum": 1}
        params.append({"name": "page", "in": "query", "schema": integer})
        params.append(
            {
                "name": "per_page",
                "in": "query",
                "schema": integer,
                "description": f"Above {MAX_PER_PAGE}, {MAX_PER_PAGE} (answered as such)",
            }
        )
    for name in op.query:
        params.append({"name": name, "in": "query", "schema": {"type": "string"}})
    return params


def _operation(op: Route, prefix: str) -> dict[str, Any]:
    responses: dict[str, Any] = {
        "200": {
            "description": "Success",
            "content": {"application/json": {"schema": _answer_schema(op.answer)}},
        }
    }
    for status in ERROR_STATUSES:
        responses[status] = {"$ref": f"#/components/responses/{status}"}
    name = re.sub(r"\W+", "_", f"{op.method.lower()}{prefix}{op.path}").strip("_")
    operation: dict[str, Any] = {
        "operationId": name,
        "summary": op.summary,
        "parameters": _parameters(op),
        "responses": responses,
    }
    if op.body is not None:
        body = op.accepts.name
        operation["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {"schema": ref(body)},
                "application/x-www-form-urlencoded": {
                    "schema": bodies.form_encoded(bodies.SCHEMAS[body])
                },
            },
        }
    return operation


@functools.lru_cache(maxsize=1)
def document() -> dict[str, Any]:
    """The OpenAPI 3 document (built once)."""
    paths: dict[str, dict[str, Any]] = {}
    for route in ROUTES:
        for prefix in route.prefixes:
            paths.setdefault(prefix + route.path, {})[route.method.lower()] = _operation(
                route, prefix
            )
    error = {"application/json": {"schema": ref("Error")}}
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "altostratus emulator",
            "version": "2",
            "description": "The service's API as the local emulator serves it.",
        },
        "x-official-clients": decisions.described(),
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {**SCHEMAS, **bodies.SCHEMAS},
            "responses": {
                status: {"description": description, "content": error}
                for status, description in ERROR_STATUSES.items()
            },
        },
    }
