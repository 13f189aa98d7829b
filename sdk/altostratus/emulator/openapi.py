"""The OpenAPI document of the service's endpoints, served at ``/openapi.json``.

Built from the route table that serves (``routes.ROUTES``) and the schemas in
``openapi_schemas``; the networking collections appear under both ``/v2/vpc`` and their original
``/v2`` paths.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from altostratus.emulator.call import Route
from altostratus.emulator.openapi_schemas import BODIES, SCHEMAS, Schema, form_encoded, ref
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
    if op.regional:
        params.append({"name": "region", "in": "query", "schema": {"type": "string"}})
    if op.paged:
        for name, maximum in (("page", None), ("per_page", 100)):
            schema: dict[str, Any] = {"type": "integer", "minimum": 1}
            if maximum:
                schema["maximum"] = maximum
            params.append({"name": name, "in": "query", "schema": schema})
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
        operation["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {"schema": ref(op.body)},
                "application/x-www-form-urlencoded": {"schema": form_encoded(BODIES[op.body])},
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
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {**SCHEMAS, **BODIES},
            "responses": {
                status: {"description": description, "content": error}
                for status, description in ERROR_STATUSES.items()
            },
        },
    }
