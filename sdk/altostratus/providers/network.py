"""Network: a private IPv4 network of a region."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulumi

from altostratus.providers import _validate
from altostratus.providers._base import Provider
from altostratus.providers._inputs import Field, cidr_text, ip_list, region_field
from altostratus.providers._resource import AltostratusResource

if TYPE_CHECKING:
    from altostratus.client import Client


@dataclass
class NetworkArgs:
    label: pulumi.Input[str] | None = None
    """Display name; defaults to the resource name. Labels may repeat."""
    region: pulumi.Input[str] | None = None
    ipv4_enabled: pulumi.Input[bool] | None = None
    cidr_v4: pulumi.Input[str] | None = None
    """A private (RFC 1918) range; the service picks a free /24 when left out."""
    nameservers_v4: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None


class NetworkProvider(Provider):
    kind = "network"
    collection = "networks"
    naming = "label"
    unique_lookup = False
    fields = (
        Field("label", _validate.text),
        region_field(),
        Field("ipv4_enabled", _validate.boolean, replaces=True),
        Field("cidr_v4", _validate.private_cidr, replaces=True, normalize=cidr_text),
        Field(
            "nameservers_v4", _validate.ip_list, replaces=True, normalize=ip_list, coerce=ip_list
        ),
    )

    def _lookup(self, api: Client, inputs: dict[str, Any]) -> list[Any]:
        cidr = inputs.get("cidr_v4")
        return [
            network
            for network in api.networks.list(region=self._region(inputs))
            if not network.default
            and network.label == inputs["label"]
            and (cidr is None or cidr_text(network.cidr) == cidr_text(cidr))
        ]

    def _live(self, api: Client, record: Any, props: dict[str, Any]) -> dict[str, Any]:
        return {**super()._live(api, record, props), "cidr_v4": record.cidr}


class Network(AltostratusResource[NetworkArgs], module="altostratus", name="Network"):
    """A private network. Changing ``region``, ``cidr_v4``, ``ipv4_enabled`` or
    ``nameservers_v4`` replaces it; ``label`` updates in place."""

    _provider_class = NetworkProvider
    _args_class = NetworkArgs

    name: pulumi.Output[str]
    default: pulumi.Output[bool]
    cidr: pulumi.Output[str]
    cidr_v4: pulumi.Output[str]
    gateway_ipv4: pulumi.Output[str]
    label: pulumi.Output[str]
    status: pulumi.Output[str]
    ipv4_enabled: pulumi.Output[bool]
    nameservers_v4: pulumi.Output[list[str]]
    free_ip_count: pulumi.Output[int]
    region: pulumi.Output[str]
