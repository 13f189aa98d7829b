"""Facts written in more than one place agree: the emulator's OpenAPI answers and the client's
models; the enumerations and regions of the providers, the emulator and its OpenAPI document.

Each test names both sides, so changing one declaration alone fails here.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import types
import typing
from typing import Any

import pytest
from pydantic import AliasChoices, BaseModel

from altostratus.client import AltostratusError, Client, models
from altostratus.client._collection import Collection
from altostratus.client.models import app as app_models
from altostratus.client.models import platform as platform_models
from altostratus.client.models._base import Page
from altostratus.emulator import vocabulary
from altostratus.emulator.openapi import SCHEMAS, document
from altostratus.emulator.reading.bodies import BODIES
from altostratus.emulator.vocabulary import EVENT_NAMES
from altostratus.providers import _validate
from altostratus.providers._events import WEBHOOK_EVENTS
from altostratus.providers._inputs import inputs_of
from altostratus.providers.firewall_rule import FirewallRuleArgs
from altostratus.providers.load_balancer import _BACKEND_CHECKS, LoadBalancerArgs

#: Each answer schema of the emulator's document, and the client model that reads it.
ANSWERS: dict[str, type[BaseModel]] = {
    "Network": models.Network,
    "NetworkCreated": models.NetworkCreated,
    "NetworkUpdated": models.NetworkUpdated,
    "Firewall": models.Firewall,
    "FirewallSaved": models.FirewallCreated,
    "Rule": models.FirewallRule,
    "EmbeddedRule": models.FirewallRule,
    "RuleCreated": models.FirewallRule,
    "Backend": models.LoadBalancerBackendRecord,
    "LoadBalancer": models.LoadBalancer,
    "LoadBalancerCreated": models.LoadBalancer,
    "ReservedIp": models.ReservedIp,
    "ReservedIpSummary": models.ReservedIp,
    "ReservedIpSaved": models.ReservedIp,
    "ReservedIpPage": Page[models.ReservedIp],
    "ObjectStore": models.ObjectStore,
    "ObjectStorePage": Page[models.ObjectStore],
    "ObjectStoreStats": models.ObjectStoreStats,
    "Credential": models.ObjectStoreCredential,
    "CredentialPage": Page[models.ObjectStoreCredential],
    "Webhook": models.Webhook,
    "WebhookCreated": models.WebhookCreated,
    "Quota": models.Quota,
    "Region": models.Region,
    "Identity": app_models.Identity,
    "App": app_models.App,
    "AppEnvironment": app_models.AppEnvironment,
    "Cluster": platform_models.Cluster,
    "PlatformEnvironment": platform_models.PlatformEnvironment,
    "PlatformApplication": platform_models.PlatformApplication,
    "ApplicationDeployment": platform_models.ApplicationDeployment,
}
#: Answers the client reads no model from (it checks only that the call succeeded), or reads
#: field by field (an app's variables, ``vars``; its log, ``lines`` of ``LogLine``).
UNREAD = {"Error", "Result", "RuleUpdated", "RuleDeleted", "AppVariables", "AppLogs"}
#: Client collections whose calls are outside the API's document: the device login of
#: ``cli auth`` (the spec does not show how it logs in; the command-line client guide gives the
#: emulator's flow, which tests/cli checks).
UNDOCUMENTED = {"login"}


def _schemas() -> dict[str, Any]:
    return document()["components"]["schemas"]  # type: ignore[no-any-return]


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in schema:
        return _schemas()[schema["$ref"].rsplit("/", 1)[1]]  # type: ignore[no-any-return]
    return schema


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model inside ``X``, ``X | None`` or ``list[X]``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) in (
        typing.Union,
        list,
    ):
        for inner in typing.get_args(annotation):
            found = _model_of(inner)
            if found is not None:
                return found
    return None


def _aliases(field: Any) -> tuple[str, ...]:
    """The other names a model field is read under (``max_size`` for ``max_size_gb``)."""
    alias = field.validation_alias
    if isinstance(alias, str):
        return (alias,)
    if isinstance(alias, AliasChoices):
        return tuple(choice for choice in alias.choices if isinstance(choice, str))
    return ()


def _missing_fields(schema: dict[str, Any], model: type[BaseModel], where: str) -> list[str]:
    """Every property of ``schema`` (and of the objects inside it) that ``model`` lacks."""
    missing = []
    read_as = {
        name: field
        for field_name, field in model.model_fields.items()
        for name in (field_name, *_aliases(field))
    }
    for name, prop in _resolve(schema).get("properties", {}).items():
        field = read_as.get(name)
        if field is None:
            missing.append(f"{where}.{name}")
            continue
        inner = _resolve(prop.get("items", prop) if prop.get("type") == "array" else prop)
        if "properties" in inner:
            nested = _model_of(field.annotation)
            if nested is None:
                missing.append(f"{where}.{name} (no model reads its fields)")
            else:
                missing.extend(_missing_fields(inner, nested, f"{where}.{name}"))
    return missing


def test_every_answer_schema_has_a_client_model() -> None:
    assert set(SCHEMAS) - set(ANSWERS) - UNREAD == set()


@pytest.mark.parametrize("schema_name", sorted(ANSWERS))
def test_every_answered_property_is_a_field_of_the_client_model(schema_name: str) -> None:
    model = ANSWERS[schema_name]
    assert _missing_fields(_schemas()[schema_name], model, model.__name__) == []


def _enum(schema_name: str, prop: str) -> list[str]:
    schemas = _schemas()
    schema = schemas[schema_name]["properties"][prop]
    return list(_resolve(schema.get("items", schema))["enum"])


def _provider_choices(args: type[Any], name: str) -> tuple[str, ...]:
    (field,) = [f for f in inputs_of(args) if f.name == name]
    assert isinstance(field.validate, _validate.OneOf), f"{args.__name__}.{name}"
    return field.validate.allowed


ENUMS = [
    # (provider's choices, the emulator's, schemas of the document that spell them)
    (
        _provider_choices(FirewallRuleArgs, "protocol"),
        vocabulary.PROTOCOLS,
        [("Rule", "protocol"), ("RuleCreate", "protocol"), ("RuleUpdate", "protocol")],
    ),
    (
        _provider_choices(FirewallRuleArgs, "direction"),
        vocabulary.DIRECTIONS,
        [("Rule", "direction")],
    ),
    (
        _provider_choices(FirewallRuleArgs, "action"),
        vocabulary.ACTIONS,
        [("Rule", "action"), ("RuleCreate", "action")],
    ),
    (
        _provider_choices(LoadBalancerArgs, "algorithm"),
        vocabulary.ALGORITHMS,
        [("LoadBalancer", "algorithm"), ("LoadBalancerCreate", "algorithm")],
    ),
    (
        _provider_choices(LoadBalancerArgs, "external_traffic_policy"),
        vocabulary.TRAFFIC_POLICIES,
        [
            ("LoadBalancer", "external_traffic_policy"),
            ("LoadBalancerUpdate", "external_traffic_policy"),
        ],
    ),
    (
        _provider_choices(LoadBalancerArgs, "session_affinity"),
        vocabulary.AFFINITIES,
        [("LoadBalancer", "session_affinity"), ("LoadBalancerCreate", "session_affinity")],
    ),
    (
        ("", *_provider_choices(LoadBalancerArgs, "enable_proxy_protocol")),
        ("", *vocabulary.PROXY_PROTOCOLS),
        [("LoadBalancerCreate", "enable_proxy_protocol")],
    ),
    (
        _BACKEND_CHECKS["protocol"].allowed,  # type: ignore[attr-defined]
        vocabulary.BACKEND_PROTOCOLS,
        [("Backend", "protocol")],
    ),
]


@pytest.mark.parametrize(("provider", "emulator", "documented"), ENUMS)
def test_validation_enums_agree(
    provider: tuple[str, ...], emulator: tuple[str, ...], documented: list[tuple[str, str]]
) -> None:
    assert provider == emulator
    for schema_name, prop in documented:
        assert tuple(_enum(schema_name, prop)) == emulator, f"{schema_name}.{prop}"


def test_request_bodies_take_the_directions_and_their_other_spellings() -> None:
    spelled = (*vocabulary.DIRECTIONS, *vocabulary.DIRECTION_ALIASES)
    assert set(vocabulary.DIRECTION_ALIASES.values()) <= set(vocabulary.DIRECTIONS)
    for schema_name in ("RuleCreate", "RuleUpdate"):
        assert tuple(_enum(schema_name, "direction")) == spelled, schema_name


def test_webhook_events_agree() -> None:
    assert set(EVENT_NAMES) == WEBHOOK_EVENTS
    assert set(_enum("WebhookCreate", "events")) == WEBHOOK_EVENTS
    assert set(_enum("WebhookUpdate", "events")) == WEBHOOK_EVENTS


def test_regions_agree() -> None:
    assert all(_validate.region(code) is None for code in vocabulary.REGIONS)
    described = _schemas()["NetworkCreate"]["properties"]["region"]["description"]
    assert tuple(re.findall(r"\b[A-Z]{3}\d\b", described)) == vocabulary.REGIONS
    assert vocabulary.DEFAULT_REGION in vocabulary.REGIONS


class _Recorder:
    """Stands in for the client's HTTP layer: keeps each request, answers an id."""

    deadline = 10.0

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, dict[str, Any] | None]] = []

    def request(
        self, method: str, path: str, *, params: Any = None, body: Any = None, ends: Any = None
    ) -> Any:
        self.sent.append((method, path, body))
        return {"id": "id-1", "result": "success"}

    def monotonic(self) -> float:
        return 0.0


#: Values a client call checks before sending (other parameters get a text value).
_SAMPLES: dict[str, Any] = {
    "backends": [{"ip": "10.0.0.2", "protocol": "TCP", "source_port": 80, "target_port": 80}],
    "options": {"server_timeout": 60, "client_timeout": "30s"},
    "variables": {"KEY": "value"},
    "environment": platform_models.PlatformEnvironment(
        name="name-value", namespace="namespace-value", description="description-value"
    ),
    "size": None,  # the earlier name of an object store's max_size_gb: one of the two is given
}


def _client_requests() -> list[tuple[str, str, str, dict[str, Any]]]:
    """``(call, method, path, body)`` of every client call that sends a body, each parameter
    given."""
    client = Client(api_key="k", api_url="http://127.0.0.1:9")
    found = []
    try:
        for attribute, collection in sorted(vars(client).items()):
            if not isinstance(collection, Collection) or attribute in UNDOCUMENTED:
                continue
            for name, call in inspect.getmembers(collection, inspect.ismethod):
                if name.startswith("_") or name == "count_objects":  # S3, sends no API body
                    continue
                recorder = _Recorder()
                collection._http = recorder  # type: ignore[assignment]
                parameters = inspect.signature(call).parameters
                given = {p: _SAMPLES.get(p, f"{p}-value") for p in parameters}
                with contextlib.suppress(AltostratusError):
                    call(**given)
                for method, path, body in recorder.sent:
                    if body is not None:
                        found.append((f"{attribute}.{name}", method, path, body))
    finally:
        client.close()
    return found


def _request_schema(method: str, path: str) -> str:
    """The name of the body schema the document gives the operation that serves ``path``."""
    for template, operations in document()["paths"].items():
        pattern = re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path) and method.lower() in operations:
            content = operations[method.lower()]["requestBody"]["content"]
            return str(content["application/json"]["schema"]["$ref"].rsplit("/", 1)[1])
    raise LookupError(f"the document has no operation {method} {path}")


CLIENT_REQUESTS = _client_requests()
#: Documented body fields the client sends in the query instead (the spec's update body of a
#: balancer has no region).
IN_THE_QUERY = {("LoadBalancerUpdate", "region")}
#: Documented body fields the service takes from its official clients' requests, which this
#: client writes in the spec's terms instead (the aliases of each body are such fields too).
OTHER_CLIENTS_ONLY = {
    ("FirewallCreate", "rules"),
    ("RuleCreate", "ports"),
    ("RuleUpdate", "ports"),
    ("RuleUpdate", "action"),
    ("ReservedIpAction", "assign_to_type"),
    ("RuleCreate", "firewall_id"),
    ("RuleUpdate", "firewall_id"),
    ("FirewallUpdate", "network_id"),
}


def test_every_client_call_that_sends_a_body_is_found() -> None:
    calls = {call for call, *_ in CLIENT_REQUESTS}
    assert {"networks.create", "firewall_rules.update", "reserved_ips.unassign"} <= calls


@pytest.mark.parametrize(("call", "method", "path", "body"), CLIENT_REQUESTS)
def test_each_field_the_client_sends_is_a_property_of_the_documented_body(
    call: str, method: str, path: str, body: dict[str, Any]
) -> None:
    schema = _request_schema(method, path)
    undocumented = set(body) - set(_schemas()[schema]["properties"])
    assert undocumented == set(), f"{call} sends fields that {schema} does not document"


def test_each_documented_body_property_is_sent_by_a_client_call() -> None:
    """Every body the client sends, and every property of it (the calls sharing a body, as a
    reserved IP's assign and unassign, together)."""
    sent: dict[str, set[str]] = {}
    for _call, method, path, body in CLIENT_REQUESTS:
        sent.setdefault(_request_schema(method, path), set()).update(body)
    unsent = {
        schema: sorted(
            name
            for name in _schemas()[schema]["properties"]
            if name not in fields
            and (schema, name) not in IN_THE_QUERY | OTHER_CLIENTS_ONLY
            and name not in BODIES[schema].aliases
        )
        for schema, fields in sent.items()
    }
    assert {schema: names for schema, names in unsent.items() if names} == {}
