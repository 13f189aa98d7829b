"""Firewall: a named set of rules attached to a network."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi

from altostratus.providers import _validate
from altostratus.providers._base import Provider
from altostratus.providers._inputs import Field, region_field
from altostratus.providers._resource import AltostratusResource


@dataclass
class FirewallArgs:
    network_id: pulumi.Input[str] | None = None
    name: pulumi.Input[str] | None = None
    """Unique per region; ``<resource name>-<7 random characters>`` when left out."""
    region: pulumi.Input[str] | None = None
    create_default_rules: pulumi.Input[bool] | None = None
    """Whether the service adds its three allow-all ingress rules (service default: true)."""


class FirewallProvider(Provider):
    kind = "firewall"
    collection = "firewalls"
    naming = "name"
    fields = (
        Field("name", _validate.text, required=True),
        Field("network_id", _validate.text, required=True, replaces=True),
        region_field(),
        Field("create_default_rules", _validate.boolean, replaces=True),
    )


class Firewall(AltostratusResource[FirewallArgs], module="altostratus", name="Firewall"):
    """A firewall. Changing ``network_id``, ``region`` or ``create_default_rules`` replaces it;
    ``name`` updates in place."""

    _provider_class = FirewallProvider
    _args_class = FirewallArgs

    name: pulumi.Output[str]
    account_id: pulumi.Output[str]
    rules_count: pulumi.Output[int]
    instance_count: pulumi.Output[int]
    cluster_count: pulumi.Output[int]
    loadbalancer_count: pulumi.Output[int]
    default: pulumi.Output[str]
    label: pulumi.Output[str]
    network_id: pulumi.Output[str]
    rules: pulumi.Output[list[dict[str, Any]]]
    region: pulumi.Output[str]
    create_default_rules: pulumi.Output[bool]
