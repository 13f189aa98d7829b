"""What each operation's request body accepts: the one declaration that the parameter layer
applies and the OpenAPI document shows.

Every body follows the rules the service applies to its official clients' requests:

- An empty string is an absent field (the official Go client sends every unset optional text as
  ``""``), except in the fields of ``empty_is_value``, where it is a value (a rule's ``label``:
  no label; a balancer's ``enable_proxy_protocol``: none).
- ``aliases`` are other names those clients send for a field (``max_size_gb`` for an object
  store's ``size``); when both names are given they must agree. ``value_aliases`` are other
  spellings of a value (``inbound`` for ``ingress``).
- Any other field is ignored, as the service does; the emulator lists it in the request log and,
  when strict, refuses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from altostratus.emulator.openapi_schemas import (
    BACKEND_FIELDS,
    BOOL,
    TEXT,
    TEXTS,
    Schema,
    choice,
    ref,
)
from altostratus.emulator.params import Params
from altostratus.emulator.state.base import REGIONS
from altostratus.emulator.state.firewalls import ACTIONS, DIRECTION_ALIASES, DIRECTIONS, PROTOCOLS
from altostratus.emulator.state.load_balancers import (
    AFFINITIES,
    ALGORITHMS,
    PROXY_PROTOCOLS,
    TRAFFIC_POLICIES,
)
from altostratus.emulator.state.webhooks import EVENT_NAMES

RULES = (
    "Fields left out, null or sent as an empty string are absent, unless a field says otherwise; "
    "fields not listed here are ignored."
)


@dataclass(frozen=True)
class Body:
    """The fields of one operation's body, ``required`` ones among them; see the module."""

    fields: Mapping[str, Schema]
    required: tuple[str, ...] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)
    value_aliases: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    empty_is_value: Mapping[str, str] = field(default_factory=dict)
    """Field name: what an empty string means there."""
    nested: Mapping[str, Body] = field(default_factory=dict)
    """Field name: the body of each object of that array field."""

    @property
    def names(self) -> frozenset[str]:
        """Every field name the body accepts, aliases included."""
        return frozenset(self.fields) | frozenset(self.aliases)

    def read(self, values: Mapping[str, Any], *, form: bool = False) -> Params:
        """``values`` as this body takes them; ``ignored`` also names the fields its nested
        objects do not take (``rules[0].colour``)."""
        params = Params(
            values,
            form=form,
            accepts=self.names,
            aliases=self.aliases,
            value_aliases=self.value_aliases,
            empty_is_value=self.empty_is_value,
        )
        for name, inner in self.nested.items():
            items = params.structured(name) if name in params else None
            for index, item in enumerate(items if isinstance(items, list) else []):
                if isinstance(item, dict):
                    ignored = inner.read(item).ignored
                    params.ignored.extend(f"{name}[{index}].{field}" for field in ignored)
        return params

    def schema(self) -> Schema:
        properties = {name: self._property(name, schema) for name, schema in self.fields.items()}
        for alias, name in self.aliases.items():
            described = f"Another name for {name}; when both are given they must agree."
            properties[alias] = {**properties[name], "description": described}
        schema: Schema = {"type": "object", "description": RULES, "properties": properties}
        if self.required:
            schema["required"] = list(self.required)
        return schema

    def _property(self, name: str, schema: Schema) -> Schema:
        if name in self.value_aliases:
            others = self.value_aliases[name]
            spelled = ", ".join(f"{alias} is {value}" for alias, value in others.items())
            schema = {**schema, "enum": [*schema["enum"], *others], "description": spelled}
        if name in self.empty_is_value:
            schema = {**schema, "description": f"An empty string {self.empty_is_value[name]}."}
        return schema


NO_BODY = Body({})
"""Operations without a body: any field sent is ignored."""

PORT_TEXT: Schema = {"type": "string", "description": "A port from 1 to 65535, as text"}
REGION: Schema = {
    "type": "string",
    "description": f"{', '.join(REGIONS[:-1])} or {REGIONS[-1]} (any case)",
}
EVENTS: Schema = {
    "type": "array",
    "items": {"type": "string", "enum": list(EVENT_NAMES)},
    "minItems": 1,
}
SIZE: Schema = {"type": "integer", "minimum": 1, "maximum": 1_000_000}
SENT_BACKEND: Schema = {
    "type": "object",
    "properties": {
        **BACKEND_FIELDS,
        "protocol": {**BACKEND_FIELDS["protocol"], "description": "TCP when left out"},
    },
    "required": ["ip", "source_port", "target_port"],
    "additionalProperties": False,
}
LB_SETTINGS: dict[str, Schema] = {
    "algorithm": choice(*ALGORITHMS),
    "external_traffic_policy": choice(*TRAFFIC_POLICIES),
    "session_affinity": choice(*AFFINITIES),
    "enable_proxy_protocol": choice("", *PROXY_PROTOCOLS),
    "backends": {"type": "array", "items": ref("SentBackend")},
}
PROXY_NONE = {"enable_proxy_protocol": "means no proxy protocol"}
RULE_FIELDS: dict[str, Schema] = {
    "region": REGION,
    "protocol": choice(*PROTOCOLS),
    "start_port": PORT_TEXT,
    "end_port": PORT_TEXT,
    "ports": {
        "type": "string",
        "description": "<start> or <start>-<end>: the ports when start_port is absent",
    },
    "cidr": {"oneOf": [TEXT, TEXTS]},
    "direction": choice(*DIRECTIONS),
    "label": TEXT,
}


def rule_body(fields: Mapping[str, Schema], required: tuple[str, ...] = ()) -> Body:
    return Body(
        fields,
        required,
        value_aliases={"direction": DIRECTION_ALIASES},
        empty_is_value={"label": "means no label"},
    )


INLINE_RULE = rule_body(
    {k: v for k, v in RULE_FIELDS.items() if k != "region"} | {"action": choice(*ACTIONS)},
    ("protocol",),
)
"""A rule given inline on a firewall's create."""

BODIES: dict[str, Body] = {
    "NetworkCreate": Body(
        {
            "label": TEXT,
            "region": REGION,
            "ipv4_enabled": BOOL,
            "cidr_v4": TEXT,
            "nameservers_v4": TEXT,
        },
        ("label",),
    ),
    "NetworkUpdate": Body({"label": TEXT, "region": REGION}, ("label",)),
    "FirewallCreate": Body(
        {
            "name": TEXT,
            "network_id": TEXT,
            "region": REGION,
            "create_default_rules": BOOL,
            "rules": {
                "type": "array",
                "items": ref("InlineRule"),
                "description": "Rules the firewall starts with, beside any default ones",
            },
        },
        ("name", "network_id"),
        aliases={"create_rules": "create_default_rules"},
        nested={"rules": INLINE_RULE},
    ),
    "FirewallUpdate": Body({"name": TEXT, "region": REGION}),
    "RuleCreate": rule_body({**RULE_FIELDS, "action": choice(*ACTIONS)}, ("protocol",)),
    "RuleUpdate": rule_body(
        {**RULE_FIELDS, "action": {**choice(*ACTIONS), "description": "The rule's own action"}}
    ),
    "LoadBalancerCreate": Body(
        {
            "name": TEXT,
            "network_id": TEXT,
            "region": REGION,
            **LB_SETTINGS,
            "session_affinity_config_timeout": {"type": "integer", "minimum": 0},
            "max_concurrent_requests": {"type": "integer", "minimum": 1},
            "firewall_id": TEXT,
        },
        ("name", "network_id", "backends"),
        empty_is_value=PROXY_NONE,
    ),
    "LoadBalancerUpdate": Body(
        {"name": TEXT, "region": REGION, **LB_SETTINGS}, empty_is_value=PROXY_NONE
    ),
    "ReservedIpCreate": Body({"name": TEXT, "region": REGION}, ("name",)),
    "ReservedIpUpdate": Body({"name": TEXT, "region": REGION}),
    "ReservedIpAction": Body(
        {
            "action": choice("assign", "unassign"),
            "assign_to_id": TEXT,
            "assign_to_type": {
                "type": "string",
                "description": "The kind of assign_to_id; load balancers are the only kind here",
            },
            "region": REGION,
        },
        ("action",),
    ),
    "ObjectStoreCreate": Body(
        {"name": TEXT, "region": REGION, "size": SIZE, "access_key_id": TEXT},
        ("name",),
        aliases={"max_size_gb": "size"},
    ),
    "ObjectStoreUpdate": Body({"region": REGION, "max_size_gb": SIZE, "access_key_id": TEXT}),
    "CredentialCreate": Body(
        {
            "name": TEXT,
            "region": REGION,
            "access_key_id": TEXT,
            "secret_access_key_id": TEXT,
            "max_size_gb": SIZE,
        },
        ("name",),
    ),
    "CredentialUpdate": Body(
        {"region": REGION, "max_size_gb": SIZE, "access_key_id": TEXT, "secret_access_key_id": TEXT}
    ),
    "WebhookCreate": Body({"url": TEXT, "events": EVENTS, "secret": TEXT}, ("url",)),
    "WebhookUpdate": Body({"url": TEXT, "events": EVENTS, "secret": TEXT}),
}

SCHEMAS: dict[str, Schema] = {
    "SentBackend": SENT_BACKEND,
    "InlineRule": INLINE_RULE.schema(),
    **{name: accepted.schema() for name, accepted in BODIES.items()},
}
"""The request schemas of the OpenAPI document."""


def form_encoded(schema: Schema) -> Schema:
    """The same body form-encoded: every value is text (arrays and objects as JSON text)."""
    properties = {name: TEXT for name in schema["properties"]}
    return {**schema, "properties": properties}
