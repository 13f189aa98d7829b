"""Each input is declared once, on its resource's ``Args``; these tests hold the other places
that name it (the provider, the outputs, the client's requests, the resources guide) to that
declaration."""

from __future__ import annotations

import dataclasses
import inspect
import re
from typing import Any
from unittest.mock import MagicMock

import pytest

import altostratus.providers as resources
from altostratus.client import Client
from altostratus.providers._resource import AltostratusResource
from tests.support.doc_pages import section, table

RESOURCES: dict[str, type[AltostratusResource[Any]]] = {
    name: value
    for name, value in vars(resources).items()
    if isinstance(value, type) and issubclass(value, AltostratusResource)
}
COLLECTIONS = {
    "Network": "networks",
    "Firewall": "firewalls",
    "FirewallRule": "firewall_rules",
    "LoadBalancer": "load_balancers",
    "ReservedIp": "reserved_ips",
    "ObjectStore": "object_stores",
    "ObjectStoreCredential": "object_store_credentials",
    "Webhook": "webhooks",
}
INLINE_RULES = ("ingress_rules", "egress_rules")
SENT_AS: dict[tuple[str, str, str], str] = {}
"""Inputs the request names otherwise."""
NOT_SENT = {
    ("ReservedIp", "create", "assign_to_id"),
    ("ReservedIp", "update", "assign_to_id"),
    ("ObjectStore", "create", "force_destroy"),
    ("ObjectStore", "update", "force_destroy"),
    *(("Firewall", call, rules) for call in ("create", "update") for rules in INLINE_RULES),
    ("FirewallRule", "create", "port_range"),
    ("FirewallRule", "update", "port_range"),
}
"""Inputs sent by another call (a reserved IP is assigned by its ``assign`` action; a firewall's
inline rules are made and removed by the rule calls: its create takes none), as others (a
rule's ``port_range`` is sent as ``start_port`` and ``end_port``, which the check makes of it),
or by none (an object store's ``force_destroy`` guards the provider's delete)."""


def args_names(resource: type[AltostratusResource[Any]]) -> list[str]:
    return [field.name for field in dataclasses.fields(resource._args_class)]


def keywords(resource: str, method: str) -> set[str]:
    call = getattr(_collection(resource), method)
    return set(inspect.signature(call).parameters) - {"self"}


def _collection(resource: str) -> type[Any]:
    client = Client(api_key="k", api_url="http://127.0.0.1:9")
    try:
        return type(getattr(client, COLLECTIONS[resource]))
    finally:
        client.close()


def test_there_are_eight_resources_each_with_its_args_class() -> None:
    assert sorted(RESOURCES) == sorted(COLLECTIONS)
    for name, resource in RESOURCES.items():
        assert resource._args_class is getattr(resources, f"{name}Args")


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_the_provider_inputs_are_the_args_fields(name: str) -> None:
    resource = RESOURCES[name]
    provider_inputs = [field.name for field in resource._provider_class.fields]
    assert provider_inputs == args_names(resource)


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_every_input_is_an_output(name: str) -> None:
    resource = RESOURCES[name]
    assert set(args_names(resource)) <= set(resource._output_names)


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_created_inputs_are_keywords_of_create_and_updatable_ones_of_update(name: str) -> None:
    fields = RESOURCES[name]._provider_class.fields
    for method, inputs in (
        ("create", [field.name for field in fields]),
        ("update", [f.name for f in fields if not (f.replaces or f.at_create)]),
    ):
        sent = {
            SENT_AS.get((name, method, given), given)
            for given in inputs
            if (name, method, given) not in NOT_SENT
        }
        assert sent <= keywords(name, method), f"{name}: inputs missing from {method}"


def _sentinels(name: str) -> dict[str, Any]:
    return {field: f"{field.upper()}-VALUE" for field in args_names(RESOURCES[name])}


def _values_sent(api: MagicMock) -> list[Any]:
    return [value for call in api.mock_calls for value in (*call.args, *call.kwargs.values())]


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_the_create_request_carries_every_input(name: str) -> None:
    provider = RESOURCES[name]._provider_class()
    api = MagicMock()
    provider._post(api, _sentinels(name))
    missing = {
        field
        for field, value in _sentinels(name).items()
        if value not in _values_sent(api) and (name, "create", field) not in NOT_SENT
    }
    assert not missing


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_the_update_requests_carry_every_updatable_input(name: str) -> None:
    provider = RESOURCES[name]._provider_class()
    updatable = {f.name for f in provider.fields if not (f.replaces or f.at_create)}
    updatable -= {field for (kind, _, field) in NOT_SENT if kind == name}
    provider._live = provider._fetch = lambda *_: {}  # type: ignore[method-assign]
    api = MagicMock()
    provider._apply(api, "id-1", {}, _sentinels(name), updatable)
    sent = _values_sent(api)
    assert {field for field in updatable if _sentinels(name)[field] not in sent} == set()


def documented_inputs(resource: str) -> list[str]:
    """The first column of the input table under the resources guide's ``## <resource>``."""
    rows = table(section("docs/resources.md", f"## {resource}"), "| input | type | notes |")
    return [re.fullmatch(r"`(\w+)`", row[0]).group(1) for row in rows]  # type: ignore[union-attr]


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_the_documented_input_table_lists_exactly_the_args_fields(name: str) -> None:
    assert documented_inputs(name) == args_names(RESOURCES[name])
