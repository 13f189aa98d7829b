"""Network: a private IPv4 network of a region."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulumi

from altostratus.providers import _validate
from altostratus.providers._base import Provider
from altostratus.providers._inputs import arg, cidr_text, inputs_of, ip_list, region_arg
from altostratus.providers._records import RegionalRecords
from altostratus.providers._resource import AltostratusResource

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.client import Network as NetworkRecord
    from altostratus.client.models import NetworkCreated, NetworkUpdated
    from altostratus.client.networks import NetworksAPI


@dataclass(kw_only=True)
class NetworkArgs:
    label: pulumi.Input[str] | None = arg(_validate.text)
    """Display name; defaults to the resource name. Labels may repeat."""
    region: pulumi.Input[str] | None = region_arg()
    ipv4_enabled: pulumi.Input[bool] | None = arg(_validate.boolean, replaces=True)
    """Whether the network has IPv4 (the service's default: true)."""
    cidr_v4: pulumi.Input[str] | None = arg(
        _validate.private_cidr, replaces=True, normalize=cidr_text
    )
    """A private (RFC 1918) range; the service picks a free /24 when left out."""
    nameservers_v4: pulumi.Input[Sequence[pulumi.Input[str]]] | None = arg(
        _validate.ip_list, normalize=ip_list, coerce=ip_list
    )
    """IPv4 DNS name servers; updated in place, as the service's Terraform provider does."""


class NetworkProvider(RegionalRecords["NetworkRecord"], Provider["NetworkRecord"]):
    status_field = "status"
    removal_takes_time = True
    kind = "network"
    naming = "label"
    unique_lookup = False
    fields = inputs_of(NetworkArgs)

    def _records(self, api: Client) -> NetworksAPI:
        return api.networks

    def _post(self, api: Client, inputs: dict[str, Any]) -> NetworkCreated:
        return api.networks.create(
            label=inputs["label"],
            region=self._region(inputs),
            ipv4_enabled=inputs.get("ipv4_enabled"),
            cidr_v4=inputs.get("cidr_v4"),
            nameservers_v4=inputs.get("nameservers_v4"),
        )

    def _put(
        self, api: Client, id_: str, changes: dict[str, Any], props: dict[str, Any]
    ) -> NetworkUpdated:
        return api.networks.update(
            id_,
            label=changes.get("label") or props["label"],
            nameservers_v4=changes.get("nameservers_v4"),
            region=self._region(props),
        )

    def _lookup(self, api: Client, inputs: dict[str, Any]) -> list[NetworkRecord]:
        cidr = inputs.get("cidr_v4")
        return [
            network
            for network in api.networks.list(region=self._region(inputs))
            if not network.default
            and network.label == inputs["label"]
            and (cidr is None or cidr_text(network.cidr) == cidr_text(cidr))
        ]

    def _live(self, api: Client, record: NetworkRecord, props: dict[str, Any]) -> dict[str, Any]:
        return {**super()._live(api, record, props), "cidr_v4": record.cidr_v4}


class Network(AltostratusResource[NetworkArgs], module="altostratus", name="Network"):
    """A private network. Changing ``region``, ``cidr_v4`` or ``ipv4_enabled`` replaces it;
    ``label`` and ``nameservers_v4`` update in place."""

    _provider_class = NetworkProvider
    _args_class = NetworkArgs

    name: pulumi.Output[str]
    """The internal name the service generates."""
    default: pulumi.Output[bool]
    """Whether it is the region's default network (never for one made here)."""
    cidr: pulumi.Output[str]
    """The network's range as the service answers it (``cidr_v4`` names the same)."""
    cidr_v4: pulumi.Output[str]
    gateway_ipv4: pulumi.Output[str]
    """The gateway's address."""
    label: pulumi.Output[str]
    status: pulumi.Output[str]
    """The network's status (``deleting`` while its removal runs)."""
    ipv4_enabled: pulumi.Output[bool]
    nameservers_v4: pulumi.Output[list[str]]
    free_ip_count: pulumi.Output[int]
    """Addresses still free in the range."""
    region: pulumi.Output[str]

    # <generated: Network.__init__>
    def __init__(
        self,
        resource_name: str,
        args: NetworkArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        label: pulumi.Input[str] | None = None,
        region: pulumi.Input[str] | None = None,
        ipv4_enabled: pulumi.Input[bool] | None = None,
        cidr_v4: pulumi.Input[str] | None = None,
        nameservers_v4: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None,
    ) -> None:
        self._declare(
            resource_name,
            args,
            opts,
            label=label,
            region=region,
            ipv4_enabled=ipv4_enabled,
            cidr_v4=cidr_v4,
            nameservers_v4=nameservers_v4,
        )

    # </generated>
