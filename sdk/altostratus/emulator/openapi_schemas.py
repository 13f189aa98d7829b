"""The JSON schemas of the service's records and answers, for the OpenAPI document (request
bodies are declared in ``bodies``). Answers are closed (no other properties), so a checker notices
a field that should be absent from an operation's answer."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.vocabulary import (
    ACTIONS,
    AFFINITIES,
    ALGORITHMS,
    BACKEND_PROTOCOLS,
    DIRECTIONS,
    PROTOCOLS,
    QUOTA_NAMES,
    TRAFFIC_POLICIES,
)

Schema = dict[str, Any]

TEXT: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
TEXTS: Schema = {"type": "array", "items": TEXT}
SUCCESS: Schema = {"type": "string", "enum": ["success"]}


def closed(properties: dict[str, Schema], optional: tuple[str, ...] = ()) -> Schema:
    """An object with exactly these properties, all required but ``optional``."""
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
        "additionalProperties": False,
    }


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def page_of(item: str) -> Schema:
    return closed(
        {"page": INT, "per_page": INT, "pages": INT, "items": {"type": "array", "items": ref(item)}}
    )


def choice(*values: str) -> Schema:
    return {"type": "string", "enum": list(values)}


PORT: Schema = {"type": "integer", "minimum": 1, "maximum": 65535}
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
BACKEND_FIELDS: dict[str, Schema] = {
    "ip": TEXT,
    "protocol": choice(*BACKEND_PROTOCOLS),
    "source_port": PORT,
    "target_port": PORT,
    "health_check_port": PORT,
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
