"""Lookups find a record as the Terraform data sources find it: a ``name`` or ``label`` no
record has exactly is the record's id, name or label, or a unique part of one of them."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.testing import DeploymentFailed, Stack


def test_a_network_by_its_generated_name_its_id_or_a_unique_part(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    created = client.networks.create(label="production-app", cidr_v4="10.84.0.0/24")
    generated = client.networks.get(created.id).name
    client.networks.create(label="staging-app", cidr_v4="10.85.0.0/24")
    assert generated

    def program() -> None:
        pulumi.export("by_name", alto.get_network(name=generated).id)
        pulumi.export("by_id_as_label", alto.get_network(label=created.id).label)
        pulumi.export("by_part", alto.get_network(label="production").id)
        pulumi.export("firewall", alto.get_firewall(name="edge").name)

    client.firewalls.create(name="edge-lon", create_default_rules=False)
    outputs = make_stack(program).up().output_values()
    assert outputs["by_name"] == created.id
    assert outputs["by_id_as_label"] == "production-app"
    assert outputs["by_part"] == created.id
    assert outputs["firewall"] == "edge-lon"


def test_a_part_of_several_records_finds_none(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    first = client.networks.create(label="production-app", cidr_v4="10.84.0.0/24")
    second = client.networks.create(label="staging-app", cidr_v4="10.85.0.0/24")
    with pytest.raises(DeploymentFailed) as failed:
        make_stack(lambda: alto.get_network(label="app")).up()
    (message,) = failed.value.result.failures
    assert "NoSingleMatchError: 2 records match: network label='app' in LON1" in message
    assert first.id in message and second.id in message
