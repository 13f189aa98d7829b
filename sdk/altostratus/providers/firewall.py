"""Firewall: a named set of rules attached to a network."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulumi

from altostratus.providers import _validate
from altostratus.providers._base import Provider
from altostratus.providers._inputs import arg, inputs_of, region_arg
from altostratus.providers._records import RegionalRecords
from altostratus.providers._resource import AltostratusResource

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.client import Firewall as FirewallRecord  # noqa: F401 (the base's record)
    from altostratus.client.firewalls import FirewallsAPI
    from altostratus.client.models import FirewallCreated, FirewallUpdated


@dataclass(kw_only=True)
class FirewallArgs:
    network_id: pulumi.Input[str] | None = arg(_validate.text, replaces=True)
    """The region's default network when left out, as the service's own tools default it."""
    name: pulumi.Input[str] | None = arg(_validate.text)
    """Unique per region; ``<resource name>-<7 random characters>`` when left out."""
    region: pulumi.Input[str] | None = region_arg()
    create_default_rules: pulumi.Input[bool] | None = arg(_validate.boolean, replaces=True)
    """Whether the service adds its three allow-all ingress rules (service default: true)."""


class FirewallProvider(RegionalRecords["FirewallRecord"], Provider["FirewallRecord"]):
    removal_takes_time = True
    kind = "firewall"
    naming = "name"
    fields = inputs_of(FirewallArgs)

    def _records(self, api: Client) -> FirewallsAPI:
        return api.firewalls

    def _post(self, api: Client, inputs: dict[str, Any]) -> FirewallCreated:
        return api.firewalls.create(
            name=inputs["name"],
            network_id=inputs.get("network_id"),
            region=self._region(inputs),
            create_default_rules=inputs.get("create_default_rules"),
        )

    def _put(
        self, api: Client, id_: str, changes: dict[str, Any], props: dict[str, Any]
    ) -> FirewallUpdated:
        return api.firewalls.update(id_, name=changes["name"], region=self._region(props))


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

    # <generated: Firewall.__init__>
    def __init__(
        self,
        resource_name: str,
        args: FirewallArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        network_id: pulumi.Input[str] | None = None,
        name: pulumi.Input[str] | None = None,
        region: pulumi.Input[str] | None = None,
        create_default_rules: pulumi.Input[bool] | None = None,
    ) -> None:
        super().__init__(
            resource_name,
            args,
            opts,
            network_id=network_id,
            name=name,
            region=region,
            create_default_rules=create_default_rules,
        )

    # </generated>
