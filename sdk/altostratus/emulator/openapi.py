"""The OpenAPI document of the service's endpoints, served at ``/openapi.json``.

Built from one table of operations and the schemas in ``openapi_schemas``; the networking
collections appear under both ``/v2/vpc`` and their original ``/v2`` paths.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from altostratus.emulator.openapi_schemas import BODIES, SCHEMAS, Schema, form_encoded, ref

ERROR_STATUSES = {
    "400": "A parameter is missing, malformed or not allowed",
    "401": "Missing or unknown API key",
    "403": "The account's quota would be exceeded",
    "404": "No such resource in this account and region",
    "409": "A unique name is taken or the resource is in use",
    "415": "The body is neither JSON nor form-encoded",
    "429": "Rate limited; see Retry-After",
}


class Operation(NamedTuple):
    method: str
    path: str
    summary: str
    answer: str
    body: str | None = None
    networking: bool = False
    paged: bool = False
    regional: bool = True


def _list(name: str) -> str:
    return f"[{name}]"


OPERATIONS = [
    Operation("get", "/networks", "List networks", _list("Network"), networking=True),
    Operation("post", "/networks", "Create a network", "NetworkCreated", "NetworkCreate", True),
    Operation("get", "/networks/{id}", "Retrieve a network", "Network", networking=True),
    Operation(
        "put", "/networks/{id}", "Relabel a network", "NetworkUpdated", "NetworkUpdate", True
    ),
    Operation("delete", "/networks/{id}", "Delete a network", "Result", networking=True),
    Operation("get", "/firewalls", "List firewalls", _list("Firewall"), networking=True),
    Operation("post", "/firewalls", "Create a firewall", "FirewallSaved", "FirewallCreate", True),
    Operation("get", "/firewalls/{id}", "Retrieve a firewall", "Firewall", networking=True),
    Operation(
        "put", "/firewalls/{id}", "Rename a firewall", "FirewallSaved", "FirewallUpdate", True
    ),
    Operation("delete", "/firewalls/{id}", "Delete a firewall", "Result", networking=True),
    Operation(
        "get", "/firewalls/{firewall_id}/rules", "List rules", _list("Rule"), networking=True
    ),
    Operation(
        "post", "/firewalls/{firewall_id}/rules", "Add a rule", "RuleCreated", "RuleCreate", True
    ),
    Operation(
        "put",
        "/firewalls/{firewall_id}/rules/{rule_id}",
        "Change a rule (not its action)",
        "RuleUpdated",
        "RuleUpdate",
        True,
    ),
    Operation(
        "delete",
        "/firewalls/{firewall_id}/rules/{rule_id}",
        "Remove a rule",
        "RuleDeleted",
        networking=True,
    ),
    Operation("get", "/loadbalancers", "List load balancers", _list("LoadBalancer"), None, True),
    Operation(
        "post",
        "/loadbalancers",
        "Create a load balancer",
        "LoadBalancerCreated",
        "LoadBalancerCreate",
        True,
    ),
    Operation("get", "/loadbalancers/{id}", "Retrieve a load balancer", "LoadBalancer", None, True),
    Operation(
        "put",
        "/loadbalancers/{id}",
        "Update a load balancer",
        "LoadBalancer",
        "LoadBalancerUpdate",
        True,
    ),
    Operation("delete", "/loadbalancers/{id}", "Delete a load balancer", "Result", None, True),
    Operation("get", "/ips", "List reserved IPs", "ReservedIpPage", None, True, paged=True),
    Operation("post", "/ips", "Reserve an IP", "ReservedIpSaved", "ReservedIpCreate", True),
    Operation("get", "/ips/{id}", "Retrieve a reserved IP", "ReservedIp", None, True),
    Operation(
        "put", "/ips/{id}", "Rename a reserved IP", "ReservedIpSaved", "ReservedIpUpdate", True
    ),
    Operation("delete", "/ips/{id}", "Release a reserved IP", "Result", None, True),
    Operation(
        "post", "/ips/{id}/actions", "Assign or unassign", "Result", "ReservedIpAction", True
    ),
    Operation("get", "/objectstores", "List object stores", "ObjectStorePage", paged=True),
    Operation(
        "post", "/objectstores", "Create an object store", "ObjectStore", "ObjectStoreCreate"
    ),
    Operation("get", "/objectstores/{id}", "Retrieve an object store", "ObjectStore"),
    Operation(
        "patch", "/objectstores/{id}", "Update an object store", "ObjectStore", "ObjectStoreUpdate"
    ),
    Operation("delete", "/objectstores/{id}", "Delete an object store", "Result"),
    Operation("get", "/objectstore/credentials", "List credentials", "CredentialPage", paged=True),
    Operation(
        "post", "/objectstore/credentials", "Create a credential", "Credential", "CredentialCreate"
    ),
    Operation("get", "/objectstore/credentials/{id}", "Retrieve a credential", "Credential"),
    Operation(
        "patch",
        "/objectstore/credentials/{id}",
        "Update a credential",
        "Credential",
        "CredentialUpdate",
    ),
    Operation("delete", "/objectstore/credentials/{id}", "Delete a credential", "Result"),
    Operation("get", "/webhooks", "List webhooks", _list("Webhook"), regional=False),
    Operation(
        "post", "/webhooks", "Create a webhook", "WebhookCreated", "WebhookCreate", regional=False
    ),
    Operation(
        "put", "/webhooks/{id}", "Update a webhook", "Webhook", "WebhookUpdate", regional=False
    ),
    Operation("delete", "/webhooks/{id}", "Delete a webhook", "Result", regional=False),
    Operation("post", "/webhooks/{id}/test", "Send a test delivery", "Result", regional=False),
    Operation("get", "/quota", "The account's quota", "Quota", regional=False),
]


def _answer_schema(answer: str) -> Schema:
    if answer.startswith("["):
        return {"type": "array", "items": ref(answer.strip("[]"))}
    return ref(answer)


def _parameters(op: Operation) -> list[dict[str, Any]]:
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


def _operation(op: Operation, prefix: str) -> dict[str, Any]:
    responses: dict[str, Any] = {
        "200": {
            "description": "Success",
            "content": {"application/json": {"schema": _answer_schema(op.answer)}},
        }
    }
    for status in ERROR_STATUSES:
        responses[status] = {"$ref": f"#/components/responses/{status}"}
    name = re.sub(r"\W+", "_", f"{op.method}{prefix}{op.path}").strip("_")
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
    for op in OPERATIONS:
        for prefix in ("/v2/vpc", "/v2") if op.networking else ("/v2",):
            paths.setdefault(prefix + op.path, {})[op.method] = _operation(op, prefix)
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
