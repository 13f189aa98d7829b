"""Facts written in more than one place agree: the emulator's OpenAPI answers and the client's
models; the enumerations and regions of the providers, the emulator and its OpenAPI document.

Each test names both sides, so changing one declaration alone fails here.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any

import pytest
from pydantic import BaseModel

from altostratus.client import models
from altostratus.client.models._base import Page
from altostratus.emulator.openapi import document
from altostratus.emulator.openapi_schemas import SCHEMAS
from altostratus.emulator.state import base as emulator_base
from altostratus.emulator.state import firewalls as emulator_firewalls
from altostratus.emulator.state import load_balancers as emulator_balancers
from altostratus.emulator.state.webhooks import EVENT_NAMES
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
    "Backend": models.LoadBalancerBackend,
    "LoadBalancer": models.LoadBalancer,
    "LoadBalancerCreated": models.LoadBalancer,
    "ReservedIp": models.ReservedIp,
    "ReservedIpSummary": models.ReservedIp,
    "ReservedIpSaved": models.ReservedIp,
    "ReservedIpPage": Page[models.ReservedIp],
    "ObjectStore": models.ObjectStore,
    "ObjectStorePage": Page[models.ObjectStore],
    "Credential": models.ObjectStoreCredential,
    "CredentialPage": Page[models.ObjectStoreCredential],
    "Webhook": models.Webhook,
    "WebhookCreated": models.WebhookCreated,
    "Quota": models.Quota,
    "Region": models.Region,
}
#: Answers the client reads no model from (it checks only that the call succeeded).
UNREAD = {"Error", "Result", "RuleUpdated", "RuleDeleted"}


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


def _missing_fields(schema: dict[str, Any], model: type[BaseModel], where: str) -> list[str]:
    """Every property of ``schema`` (and of the objects inside it) that ``model`` lacks."""
    missing = []
    for name, prop in _resolve(schema).get("properties", {}).items():
        field = model.model_fields.get(name)
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
        emulator_firewalls.PROTOCOLS,
        [("Rule", "protocol"), ("RuleCreate", "protocol"), ("RuleUpdate", "protocol")],
    ),
    (
        _provider_choices(FirewallRuleArgs, "direction"),
        emulator_firewalls.DIRECTIONS,
        [("Rule", "direction"), ("RuleCreate", "direction"), ("RuleUpdate", "direction")],
    ),
    (
        _provider_choices(FirewallRuleArgs, "action"),
        emulator_firewalls.ACTIONS,
        [("Rule", "action"), ("RuleCreate", "action")],
    ),
    (
        _provider_choices(LoadBalancerArgs, "algorithm"),
        emulator_balancers.ALGORITHMS,
        [("LoadBalancer", "algorithm"), ("LoadBalancerCreate", "algorithm")],
    ),
    (
        _provider_choices(LoadBalancerArgs, "external_traffic_policy"),
        emulator_balancers.TRAFFIC_POLICIES,
        [
            ("LoadBalancer", "external_traffic_policy"),
            ("LoadBalancerUpdate", "external_traffic_policy"),
        ],
    ),
    (
        _provider_choices(LoadBalancerArgs, "session_affinity"),
        emulator_balancers.AFFINITIES,
        [("LoadBalancer", "session_affinity"), ("LoadBalancerCreate", "session_affinity")],
    ),
    (
        ("", *_provider_choices(LoadBalancerArgs, "enable_proxy_protocol")),
        ("", *emulator_balancers.PROXY_PROTOCOLS),
        [("LoadBalancerCreate", "enable_proxy_protocol")],
    ),
    (
        _BACKEND_CHECKS["protocol"].allowed,  # type: ignore[attr-defined]
        emulator_balancers.BACKEND_PROTOCOLS,
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


def test_webhook_events_agree() -> None:
    assert set(EVENT_NAMES) == WEBHOOK_EVENTS
    assert set(_enum("WebhookCreate", "events")) == WEBHOOK_EVENTS
    assert set(_enum("WebhookUpdate", "events")) == WEBHOOK_EVENTS


def test_regions_agree() -> None:
    assert _validate.REGIONS == emulator_base.REGIONS
    described = _schemas()["NetworkCreate"]["properties"]["region"]["description"]
    assert tuple(re.findall(r"\b[A-Z]{3}\d\b", described)) == emulator_base.REGIONS
    assert emulator_base.DEFAULT_REGION in emulator_base.REGIONS
