"""What each operation's request body accepts, declared once: a frozen dataclass per body, whose
fields name their type, their reader (parser and documented schema) and whether they are
required (see ``fields``). The app reads a request into it before the route runs, the route
hands it to its store, whose ``create`` or ``update`` takes that type, and the OpenAPI document
shows it: a field named differently in a store is a type error, not a silent None.

Every body follows the rules the service applies to its official clients' requests:

- An empty string is an absent field (the official Go client sends every unset optional text as
  ``""``), except in the fields declared with ``empty``, where it is a value (a rule's
  ``label``: no label; a balancer's ``enable_proxy_protocol``: none).
- An ``alias`` is another name those clients send for a field (``max_size_gb`` for an object
  store's ``size``); when both names are given they must agree. ``spellings`` are other
  spellings of a value (``inbound`` for ``ingress``).
- Any other field is ignored, as the service does; the emulator lists it in the request log and,
  when strict, refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from ipaddress import IPv4Network
from typing import Any

from altostratus.emulator.reading.fields import (
    BOOLEAN,
    Body,
    choice,
    given,
    integer,
    objects,
    parsed,
    port,
    structured,
    text,
    text_list,
)
from altostratus.emulator.reading.formats import (
    Backend,
    parse_backends,
    parse_balancer_options,
    parse_cidr,
    parse_dns_label,
    parse_dns_labels,
    parse_events,
    parse_http_url,
    parse_ipv4,
    parse_ports,
    parse_private_cidr,
    parse_variables,
)
from altostratus.emulator.reading.schemas import BACKEND_FIELDS, TEXT, TEXTS, Schema, ref
from altostratus.emulator.vocabulary import (
    ACTIONS,
    AFFINITIES,
    ALGORITHMS,
    ASSIGNABLE,
    DIRECTION_ALIASES,
    DIRECTIONS,
    EVENT_NAMES,
    PROTOCOLS,
    PROXY_PROTOCOLS,
    TRAFFIC_POLICIES,
)

SIZE = integer(minimum=1, maximum=1_000_000)
PORT_TEXT: Schema = {"type": "string", "description": "A port from 1 to 65535, as text"}
SENT_BACKEND: Schema = {
    "type": "object",
    "properties": {
        **BACKEND_FIELDS,
        "protocol": {**BACKEND_FIELDS["protocol"], "description": "TCP when left out"},
    },
    "required": ["ip", "source_port", "target_port"],
    "additionalProperties": False,
}
BALANCER_OPTIONS: Schema = {
    "type": "object",
    "properties": {
        "server_timeout": {"oneOf": [{"type": "integer", "minimum": 0}, TEXT]},
        "client_timeout": {"oneOf": [{"type": "integer", "minimum": 0}, TEXT]},
    },
}
EVENTS: Schema = {
    "type": "array",
    "items": {"type": "string", "enum": list(EVENT_NAMES)},
    "minItems": 1,
}


@dataclass(frozen=True, kw_only=True)
class NoFields:
    """The fields of an operation without a body: any field sent is ignored."""


NO_BODY = Body(NoFields, regional=False)


NAMESERVERS = text_list(parse_ipv4, what="comma-separated IPv4 addresses")


@dataclass(frozen=True, kw_only=True)
class NetworkCreate:
    label: str = given(text(), required=True)
    ipv4_enabled: bool | None = given(BOOLEAN)
    cidr_v4: IPv4Network | None = given(parsed(parse_private_cidr))
    """A private range; a free /24 when absent."""
    nameservers_v4: tuple[str, ...] | None = given(NAMESERVERS)


@dataclass(frozen=True, kw_only=True)
class NetworkUpdate:
    label: str = given(text(), required=True)
    nameservers_v4: tuple[str, ...] | None = given(
        NAMESERVERS, about="Replaces the name servers; as the Terraform provider updates them"
    )


@dataclass(frozen=True, kw_only=True)
class _RuleFields:
    """The fields a rule's create and update share."""

    start_port: int | None = given(port(PORT_TEXT))
    end_port: int | None = given(port(PORT_TEXT))
    ports: tuple[int, int | None] | None = given(
        parsed(parse_ports), about="<start> or <start>-<end>: the ports when start_port is absent"
    )
    cidr: tuple[str, ...] | None = given(
        text_list(
            parse_cidr,
            what="a CIDR block or an array of them",
            schema={"oneOf": [TEXT, TEXTS]},
            allow_empty=False,
        )
    )
    direction: str | None = given(choice(*DIRECTIONS), spellings=DIRECTION_ALIASES)
    label: str | None = given(text(blank=True), empty="means no label")
    firewall_id: str | None = given(
        text(), about="The firewall of the path, as the official clients repeat it (must agree)"
    )


@dataclass(frozen=True, kw_only=True)
class RuleCreate(_RuleFields):
    protocol: str = given(choice(*PROTOCOLS), required=True)
    action: str | None = given(choice(*ACTIONS))


@dataclass(frozen=True, kw_only=True)
class RuleUpdate(_RuleFields):
    protocol: str | None = given(choice(*PROTOCOLS))
    action: str | None = given(choice(*ACTIONS), about="The rule's own action")
    """Fixed at create: only the rule's own action is taken."""


INLINE_RULE = Body(RuleCreate, regional=False, name="InlineRule")
"""A rule given inline on a firewall's create."""


@dataclass(frozen=True, kw_only=True)
class FirewallCreate:
    name: str = given(text(), required=True)
    network_id: str | None = given(text(), about="The region's default network when absent")
    create_default_rules: bool | None = given(BOOLEAN, alias="create_rules")
    rules: tuple[RuleCreate, ...] | None = given(
        objects(INLINE_RULE, what="rule objects"),
        about="Rules the firewall starts with, beside any default ones",
    )


@dataclass(frozen=True, kw_only=True)
class FirewallUpdate:
    name: str | None = given(text())
    network_id: str | None = given(
        text(), about="The firewall's network, as the official CLI's rename sends it (must agree)"
    )


BACKENDS = structured(parse_backends, {"type": "array", "items": ref("SentBackend")})
OPTIONS = structured(parse_balancer_options, ref("BalancerOptions"))


@dataclass(frozen=True, kw_only=True)
class _BalancerSettings:
    """The settings a balancer's create and update share."""

    algorithm: str | None = given(choice(*ALGORITHMS))
    external_traffic_policy: str | None = given(choice(*TRAFFIC_POLICIES))
    session_affinity: str | None = given(choice(*AFFINITIES))
    enable_proxy_protocol: str | None = given(
        choice("", *PROXY_PROTOCOLS), empty="means no proxy protocol"
    )
    session_affinity_config_timeout: int | None = given(integer(minimum=0))
    max_concurrent_requests: int | None = given(integer(minimum=1))
    options: dict[str, int | str] | None = given(OPTIONS)
    """Server and client timeouts, kept and answered as sent."""
    firewall_rule: str | None = given(
        text(),
        about="What the firewall made for a balancer created without firewall_id opens: all, "
        "or ports and ranges (80,443,8000-8080) over TCP; each backend's source port when "
        "absent. Kept and answered",
    )


@dataclass(frozen=True, kw_only=True)
class LoadBalancerCreate(_BalancerSettings):
    name: str = given(text(), required=True)
    network_id: str = given(text(), required=True)
    backends: tuple[Backend, ...] = given(BACKENDS, required=True)
    firewall_id: str | None = given(
        text(blank=True),
        about="A firewall of the region; when absent, the balancer gets one of its own on its "
        "network, deleted with it",
    )


@dataclass(frozen=True, kw_only=True)
class LoadBalancerUpdate(_BalancerSettings):
    name: str | None = given(text())
    backends: tuple[Backend, ...] | None = given(BACKENDS)


@dataclass(frozen=True, kw_only=True)
class ReservedIpCreate:
    name: str | None = given(
        text(), about="The address itself when absent, as the official Go client documents it"
    )


@dataclass(frozen=True, kw_only=True)
class ReservedIpUpdate:
    name: str | None = given(text())


@dataclass(frozen=True, kw_only=True)
class ReservedIpAction:
    action: str = given(choice("assign", "unassign"), required=True)
    assign_to_id: str | None = given(text())
    """The load balancer to assign to (required by ``assign``)."""
    assign_to_type: str | None = given(
        choice(*ASSIGNABLE),
        about="The kind of assign_to_id (loadbalancer when absent); the emulator serves no "
        "instances, so an instance is never found",
    )


@dataclass(frozen=True, kw_only=True)
class ObjectStoreCreate:
    name: str = given(text(), required=True)
    size: int | None = given(SIZE, alias="max_size_gb")
    """GB; 500 when absent."""
    access_key_id: str | None = given(text())
    """The owner credential's key; a credential named after the bucket is made when absent."""


@dataclass(frozen=True, kw_only=True)
class ObjectStoreUpdate:
    max_size_gb: int | None = given(SIZE)
    access_key_id: str | None = given(text())


@dataclass(frozen=True, kw_only=True)
class CredentialCreate:
    name: str = given(text(), required=True)
    access_key_id: str | None = given(text())
    secret_access_key_id: str | None = given(text())
    max_size_gb: int | None = given(SIZE)


@dataclass(frozen=True, kw_only=True)
class CredentialUpdate:
    max_size_gb: int | None = given(SIZE)
    access_key_id: str | None = given(text())
    secret_access_key_id: str | None = given(text())


@dataclass(frozen=True, kw_only=True)
class WebhookCreate:
    url: str = given(parsed(parse_http_url), required=True)
    events: tuple[str, ...] | None = given(structured(parse_events, EVENTS))
    """Every event (``*``) when absent."""
    secret: str | None = given(text())
    """Made when absent."""


@dataclass(frozen=True, kw_only=True)
class WebhookUpdate:
    url: str | None = given(parsed(parse_http_url))
    events: tuple[str, ...] | None = given(structured(parse_events, EVENTS))
    secret: str | None = given(text())


DNS_LABEL = parsed(parse_dns_label)


@dataclass(frozen=True, kw_only=True)
class PlatformEnvironmentCreate:
    """``POST /api/v1/environment``: the namespace is the organization's."""

    name: str = given(DNS_LABEL, required=True)
    namespace: str = given(text(), required=True)
    description: str | None = given(text(blank=True))
    clusters: tuple[str, ...] | None = given(structured(parse_dns_labels, TEXTS))
    """The clusters the environment deploys to; none when absent (attach them later)."""


@dataclass(frozen=True, kw_only=True)
class PlatformEnvironmentUpdate(PlatformEnvironmentCreate):
    """``PUT /api/v1/environment``: the environment read, changed and sent whole, so the same
    fields as its create."""


@dataclass(frozen=True, kw_only=True)
class ApplicationRegister:
    """``POST /api/v1/application/register``: registering a name again updates it."""

    name: str = given(DNS_LABEL, required=True)
    namespace: str = given(text(), required=True)
    repository: str = given(parsed(parse_http_url), required=True)
    branch: str | None = given(text())
    """``main`` when absent."""


@dataclass(frozen=True, kw_only=True)
class ApplicationDeploy:
    """``POST /api/v1/application-deployment/deploy``: the application's one deployment, made
    or replaced."""

    application: str = given(DNS_LABEL, required=True)
    namespace: str = given(text(), required=True)
    environment: str = given(DNS_LABEL, required=True)
    version: str | None = given(text())
    """The branch's head (``HEAD``) when absent."""


RUNTIMES = ("python", "nodejs", "go", "docker")
VARIABLES: Schema = {"type": "object", "additionalProperties": TEXT}


@dataclass(frozen=True, kw_only=True)
class AppDeploy:
    """``POST /api/v1/apps``: the application made, or given a new build of what was pushed."""

    name: str = given(DNS_LABEL, required=True)
    organization: str = given(text(), required=True)
    runtime: str = given(choice(*RUNTIMES), required=True)
    digest: str = given(text(), required=True)
    """The SHA-256 of the pushed tree (its files' paths and bytes)."""
    files: int | None = given(integer(minimum=0))
    environment: str | None = given(DNS_LABEL)
    """The hosting environment; ``default`` when absent."""


@dataclass(frozen=True, kw_only=True)
class AppVariables:
    """``PUT /api/v1/apps/{org}/{name}/env``: variables to set (the others are kept)."""

    vars: tuple[tuple[str, str], ...] = given(structured(parse_variables, VARIABLES), required=True)


@dataclass(frozen=True, kw_only=True)
class AppEnvironmentCreate:
    """``POST /api/v1/app-environments``: a hosting environment in a region."""

    name: str = given(DNS_LABEL, required=True)
    organization: str = given(text(), required=True)
    region: str | None = given(text())
    """The account's default region when absent."""


_ACCOUNT_WIDE = (
    AppDeploy,
    AppVariables,
    AppEnvironmentCreate,
    WebhookCreate,
    WebhookUpdate,
    PlatformEnvironmentCreate,
    PlatformEnvironmentUpdate,
    ApplicationRegister,
    ApplicationDeploy,
)
BODIES: dict[str, Body[Any]] = {
    typed.__name__: Body(typed, regional=typed not in _ACCOUNT_WIDE)
    for typed in (
        NetworkCreate,
        NetworkUpdate,
        FirewallCreate,
        FirewallUpdate,
        RuleCreate,
        RuleUpdate,
        LoadBalancerCreate,
        LoadBalancerUpdate,
        ReservedIpCreate,
        ReservedIpUpdate,
        ReservedIpAction,
        ObjectStoreCreate,
        ObjectStoreUpdate,
        CredentialCreate,
        CredentialUpdate,
        *_ACCOUNT_WIDE,
    )
}
"""Every operation's body, by the name of its fields' type (and of its schema)."""

SCHEMAS: dict[str, Schema] = {
    "SentBackend": SENT_BACKEND,
    "BalancerOptions": BALANCER_OPTIONS,
    INLINE_RULE.name: INLINE_RULE.schema(),
    **{name: accepted.schema() for name, accepted in BODIES.items()},
}
"""The request schemas of the OpenAPI document."""


def form_encoded(schema: Schema) -> Schema:
    """The same body form-encoded: every value is text (arrays and objects as JSON text)."""
    properties = {name: TEXT for name in schema["properties"]}
    return {**schema, "properties": properties}
