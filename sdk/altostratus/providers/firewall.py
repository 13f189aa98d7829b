"""Firewall: a named set of rules attached to a network; optionally its rules inline."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulumi

from altostratus.providers import _inline_rules, _regions, _validate
from altostratus.providers._base import Provider
from altostratus.providers._inline_rules import FirewallInlineRuleArgs, FirewallInlineRuleArgsDict
from altostratus.providers._inputs import arg, inputs_of, region_arg
from altostratus.providers._records import RegionalRecords
from altostratus.providers._resource import AltostratusResource

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.client import Firewall as FirewallRecord
    from altostratus.client.firewalls import FirewallsAPI
    from altostratus.client.models import FirewallCreated, FirewallUpdated


@dataclass(kw_only=True)
class FirewallArgs:
    network_id: pulumi.Input[str] | None = arg(_validate.text, replaces=True)
    """The region's default network when left out, as the service's own tools default it."""
    name: pulumi.Input[str] | None = arg(_validate.text)
    """Unique per region; ``<resource name>-<7 random characters>`` when left out."""
    region: pulumi.Input[str] | None = region_arg()
    create_default_rules: pulumi.Input[bool] | None = arg(_validate.boolean, at_create=True)
    """Whether the service adds its three allow-all ingress rules (service default: true). Read
    at creation only: a later change shows no difference and changes nothing (the API cannot)."""
    ingress_rules: (
        pulumi.Input[Sequence[pulumi.Input[FirewallInlineRuleArgs | FirewallInlineRuleArgsDict]]]
        | None
    ) = _inline_rules.rules_arg("ingress_rule")
    """The firewall's ingress rules, managed with it (the bridged provider's ``ingress_rule``);
    left out: not managed here. Not together with ``FirewallRule`` resources on the firewall."""
    egress_rules: (
        pulumi.Input[Sequence[pulumi.Input[FirewallInlineRuleArgs | FirewallInlineRuleArgsDict]]]
        | None
    ) = _inline_rules.rules_arg("egress_rule")
    """The firewall's egress rules, as ``ingress_rules``."""


class FirewallProvider(RegionalRecords["FirewallRecord"], Provider["FirewallRecord"]):
    removal_takes_time = True
    kind = "firewall"
    naming = "name"
    reference = "network_id"
    referred_kind = "network"
    reference_missing = frozenset({"database_network_not_found"})
    fields = inputs_of(FirewallArgs)

    def _records(self, api: Client) -> FirewallsAPI:
        return api.firewalls

    def _refers_in(self, api: Client, value: str, region: str) -> bool:
        return _regions.found(lambda: api.networks.get(value, region=region))

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

    def _settle(self, api: Client, inputs: dict[str, Any], record: Any) -> dict[str, Any]:
        """The inline rules are made once the firewall exists (its create takes none)."""
        made = _inline_rules.reconcile(api, str(record.id), self._region(inputs), inputs, {})
        return super()._settle(api, {**inputs, **made}, record)

    def _apply(
        self, api: Client, id_: str, olds: dict[str, Any], news: dict[str, Any], changed: set[str]
    ) -> dict[str, Any]:
        """A rename (PUT), then the inline rules reconciled with those the state records."""
        if "name" in changed:
            self._put(api, id_, {"name": news.get("name")}, news)
        if changed & set(_inline_rules.DIRECTIONS):
            made = _inline_rules.reconcile(api, id_, self._region(news), news, olds)
            news = {**news, **made}
        return self._fetch(api, id_, news)

    def _live(self, api: Client, record: FirewallRecord, props: dict[str, Any]) -> dict[str, Any]:
        live = super()._live(api, record, props)
        default_rules = props.get("create_default_rules") is not False
        live.update(_inline_rules.reported(record.rules or [], props, default_rules=default_rules))
        return live


class Firewall(AltostratusResource[FirewallArgs], module="altostratus", name="Firewall"):
    """A firewall. Changing ``network_id`` or ``region`` replaces it; ``name`` and the inline
    rules (``ingress_rules``, ``egress_rules``) update in place; ``create_default_rules`` counts
    at creation only (a change shows no difference). A firewall with inline rules takes no
    ``FirewallRule`` resources (see ``FirewallRule``)."""

    _provider_class = FirewallProvider
    _args_class = FirewallArgs

    name: pulumi.Output[str]
    account_id: pulumi.Output[str]
    """The owning account."""
    rules_count: pulumi.Output[int]
    """How many rules the firewall holds."""
    instance_count: pulumi.Output[int]
    """Instances using the firewall."""
    cluster_count: pulumi.Output[int]
    """Clusters using the firewall."""
    loadbalancer_count: pulumi.Output[int]
    """Load balancers using the firewall."""
    default: pulumi.Output[str]
    """Whether it is a default firewall, as the service's text (it carries a boolean)."""
    label: pulumi.Output[str]
    """The service's display label (may be empty)."""
    network_id: pulumi.Output[str]
    rules: pulumi.Output[list[dict[str, Any]]]
    """Every rule of the firewall as the service answers it, inline or not."""
    region: pulumi.Output[str]
    create_default_rules: pulumi.Output[bool]
    ingress_rules: pulumi.Output[list[dict[str, Any]]]
    egress_rules: pulumi.Output[list[dict[str, Any]]]

    _manages_rules: bool = False
    """Whether the program gave the firewall inline rules (either list)."""

    def _register(
        self, resource_name: str, props: dict[str, Any], opts: pulumi.ResourceOptions | None
    ) -> None:
        self._manages_rules = any(props.get(name) is not None for name in _inline_rules.DIRECTIONS)
        super()._register(resource_name, props, opts)

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
        ingress_rules: pulumi.Input[
            Sequence[pulumi.Input[FirewallInlineRuleArgs | FirewallInlineRuleArgsDict]]
        ]
        | None = None,
        egress_rules: pulumi.Input[
            Sequence[pulumi.Input[FirewallInlineRuleArgs | FirewallInlineRuleArgsDict]]
        ]
        | None = None,
        ingress_rule: pulumi.Input[
            Sequence[pulumi.Input[FirewallInlineRuleArgs | FirewallInlineRuleArgsDict]]
        ]
        | None = None,
        egress_rule: pulumi.Input[
            Sequence[pulumi.Input[FirewallInlineRuleArgs | FirewallInlineRuleArgsDict]]
        ]
        | None = None,
    ) -> None:
        self._declare(
            resource_name,
            args,
            opts,
            network_id=network_id,
            name=name,
            region=region,
            create_default_rules=create_default_rules,
            ingress_rules=ingress_rules,
            egress_rules=egress_rules,
            ingress_rule=ingress_rule,
            egress_rule=egress_rule,
        )

    # </generated>
