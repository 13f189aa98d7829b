"""The OpenAPI document of the service's endpoints, served at ``/openapi.json``.

Built from the route table that serves (``routes.ROUTES``), the answers' schemas below (closed:
no other properties, so a checker notices a field that should be absent from an operation's
answer), the bodies in ``requests.bodies`` and the decisions where the spec and the official
clients disagree (``state.decisions``, under ``x-official-clients``); the networking
collections appear under both ``/v2/vpc`` and their original ``/v2`` paths.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from altostratus.emulator.reading import bodies
from altostratus.emulator.reading.params import MAX_PER_PAGE
from altostratus.emulator.reading.schemas import (
    BACKEND_FIELDS,
    BOOL,
    INT,
    TEXT,
    TEXTS,
    Schema,
    choice,
    closed,
    ref,
)
from altostratus.emulator.routes import ROUTES
from altostratus.emulator.routes.call import Route
from altostratus.emulator.state import decisions
from altostratus.emulator.vocabulary import (
    ACTIONS,
    AFFINITIES,
    ALGORITHMS,
    DIRECTIONS,
    PROTOCOLS,
    QUOTA_NAMES,
    TRAFFIC_POLICIES,
)

SUCCESS: Schema = {"type": "string", "enum": ["success"]}


def page_of(item: str) -> Schema:
    return closed(
        {"page": INT, "per_page": INT, "pages": INT, "items": {"type": "array", "items": ref(item)}}
    )


RULE_FIELDS: dict[str, Schema] = {
    "id": TEXT,
    "firewall_id": TEXT,
    "protocol": choice(*PROTOCOLS),
    "start_port": TEXT,
    "cidr": TEXTS,
    "direction": choice(*DIRECTIONS),
    "label": TEXT,
    "end_port": TEXT,
    "action": choice(*ACTIONS),
    "ports": TEXT,
}
BACKEND = closed(BACKEND_FIELDS, optional=("health_check_port",))
LOAD_BALANCER_FIELDS: dict[str, Schema] = {
    "id": TEXT,
    "name": TEXT,
    "network_id": TEXT,
    "service_name": TEXT,
    "algorithm": choice(*ALGORITHMS),
    "backends": {"type": "array", "items": ref("Backend")},
    "public_ip": TEXT,
    "private_ip": TEXT,
    "firewall_id": TEXT,
    "state": TEXT,
    "max_concurrent_requests": INT,
    "created_at": TEXT,
    "external_traffic_policy": choice(*TRAFFIC_POLICIES),
    "session_affinity": choice(*AFFINITIES),
    "session_affinity_config_timeout": INT,
    "enable_proxy_protocol": TEXT,
    "options": {"type": "object", "properties": {"server_timeout": {}, "client_timeout": {}}},
    "firewall_rule": TEXT,
    "reserved_ip_id": TEXT,
    "reserved_ip_name": TEXT,
    "reserved_ip": TEXT,
}
ASSIGNED_ONLY = ("reserved_ip_id", "reserved_ip_name", "reserved_ip")
"""A balancer's fields answered only while a reserved IP is assigned to it."""

SCHEMAS: dict[str, Schema] = {
    "Error": closed({"result": choice("failed"), "code": TEXT, "reason": TEXT}),
    "Result": closed({"result": SUCCESS}),
    "Network": closed(
        {
            "id": TEXT,
            "name": TEXT,
            "default": BOOL,
            "cidr": TEXT,
            "gateway_ipv4": TEXT,
            "label": TEXT,
            "status": TEXT,
            "ipv4_enabled": BOOL,
            "nameservers_v4": TEXTS,
            "free_ip_count": INT,
        }
    ),
    "NetworkCreated": closed({"id": TEXT, "result": SUCCESS, "name": TEXT, "label": TEXT}),
    "NetworkUpdated": closed({"id": TEXT, "result": SUCCESS, "label": TEXT}),
    "Firewall": closed(
        {
            "id": TEXT,
            "name": TEXT,
            "account_id": TEXT,
            "rules_count": INT,
            "instance_count": INT,
            "cluster_count": INT,
            "loadbalancer_count": INT,
            "default": TEXT,
            "label": TEXT,
            "network_id": TEXT,
            "rules": {"type": "array", "items": ref("EmbeddedRule")},
        }
    ),
    "FirewallSaved": closed({"id": TEXT, "result": SUCCESS, "name": TEXT}),
    "Rule": closed(RULE_FIELDS),
    "EmbeddedRule": closed({k: v for k, v in RULE_FIELDS.items() if k != "firewall_id"}),
    "RuleCreated": closed({k: v for k, v in RULE_FIELDS.items() if k != "ports"}),
    "RuleUpdated": closed({"id": TEXT, "result": SUCCESS}),
    "RuleDeleted": closed({"id": TEXT, "result": SUCCESS, "name": TEXT}),
    "Backend": BACKEND,
    "LoadBalancer": closed(LOAD_BALANCER_FIELDS, optional=ASSIGNED_ONLY),
    "LoadBalancerCreated": closed(
        {k: v for k, v in LOAD_BALANCER_FIELDS.items() if k != "service_name"},
        optional=ASSIGNED_ONLY,
    ),
    "ReservedIp": closed(
        {
            "id": TEXT,
            "name": TEXT,
            "ip": TEXT,
            "assigned_to": closed({"id": TEXT, "type": choice("loadbalancer"), "name": TEXT}),
        },
        optional=("assigned_to",),
    ),
    "ReservedIpSummary": ref("ReservedIp"),  # a list item carries assigned_to too
    "ReservedIpSaved": closed({"id": TEXT, "name": TEXT}),
    "ReservedIpPage": page_of("ReservedIpSummary"),
    "ObjectStore": closed(
        {
            "id": TEXT,
            "name": TEXT,
            "max_size_gb": INT,
            "max_size": INT,
            "owner_info": closed({"name": TEXT, "access_key_id": TEXT, "credential_id": TEXT}),
            "status": choice("creating", "ready", "deleting"),
            "objectstore_endpoint": TEXT,
        }
    ),
    "ObjectStorePage": page_of("ObjectStore"),
    "ObjectStoreStats": closed({"size_kb_utilised": INT, "max_size_kb": INT, "num_objects": INT}),
    "Credential": closed(
        {
            "id": TEXT,
            "name": TEXT,
            "access_key_id": TEXT,
            "secret_access_key_id": TEXT,
            "max_size_gb": INT,
            "suspended": BOOL,
            "status": TEXT,
        }
    ),
    "CredentialPage": page_of("Credential"),
    "Webhook": closed(
        {
            "id": TEXT,
            "created_at": TEXT,
            "events": TEXTS,
            "url": TEXT,
            "secret": TEXT,
            "disabled": BOOL,
            "failures": INT,
            "last_failure_reason": TEXT,
        }
    ),
    "WebhookCreated": closed({"result": SUCCESS, "id": TEXT}),
    "Region": closed(
        {
            "code": TEXT,
            "name": TEXT,
            "type": TEXT,
            "out_of_capacity": BOOL,
            "country": TEXT,
            "country_name": TEXT,
            "features": {"type": "object", "additionalProperties": BOOL},
            "default": BOOL,
        }
    ),
    "PlatformEnvironment": closed(
        {
            "id": TEXT,
            "name": TEXT,
            "namespace": TEXT,
            "description": TEXT,
            "clusters": TEXTS,
            "created_at": TEXT,
        }
    ),
    "PlatformApplication": closed(
        {
            "id": TEXT,
            "name": TEXT,
            "namespace": TEXT,
            "repository": TEXT,
            "branch": TEXT,
            "created_at": TEXT,
        }
    ),
    "ApplicationDeployment": closed(
        {
            "id": TEXT,
            "name": TEXT,
            "namespace": TEXT,
            "environment": TEXT,
            "clusters": TEXTS,
            "version": TEXT,
            "status": choice("pending", "progressing", "healthy"),
            "created_at": TEXT,
            "deployed_at": TEXT,
        }
    ),
    "Cluster": closed(
        {
            "name": TEXT,
            "region": TEXT,
            "organization": TEXT,
            "kubernetes_version": TEXT,
            "status": TEXT,
        }
    ),
    "App": closed(
        {
            "id": TEXT,
            "name": TEXT,
            "organization": TEXT,
            "environment": TEXT,
            "runtime": TEXT,
            "phase": choice("building", "deploying", "running"),
            "url": TEXT,
            "image": TEXT,
            "builds": {
                "type": "array",
                "items": closed(
                    {
                        "number": INT,
                        "started_at": TEXT,
                        "reason": TEXT,
                        "status": choice("building", "succeeded", "superseded"),
                    }
                ),
            },
            "created_at": TEXT,
        }
    ),
    "AppLogs": closed(
        {
            "lines": {
                "type": "array",
                "items": closed(
                    {"at": TEXT, "stream": choice("build", "runtime"), "message": TEXT}
                ),
            }
        }
    ),
    "AppVariables": closed({"vars": {"type": "object", "additionalProperties": TEXT}}),
    "AppEnvironment": closed(
        {
            "name": TEXT,
            "organization": TEXT,
            "region": TEXT,
            "cluster": TEXT,
            "built_in": BOOL,
            "created_at": TEXT,
        },
        optional=("created_at",),
    ),
    "Identity": closed(
        {
            "id": TEXT,
            "email": TEXT,
            "account_id": TEXT,
            "roles": TEXTS,
            "organizations": {
                "type": "array",
                "items": closed({"name": TEXT, "role": TEXT}),
            },
        }
    ),
    "Quota": closed(
        {
            "id": TEXT,
            "default_user_id": TEXT,
            "default_user_email_address": TEXT,
            **{f"{n}_{s}": INT for n in QUOTA_NAMES for s in ("limit", "usage")},
            "clusters_lifetime_count": INT,
            "clusters_current_count": INT,
            "instances_lifetime_count": INT,
        }
    ),
}


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
