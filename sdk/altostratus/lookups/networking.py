"""Lookups of networks, firewalls, load balancers and reserved IPs of a region."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi

from altostratus.lookups._find import LookupResult, find, lifted
from altostratus.lookups._routed import routed
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.reserved_ip import ReservedIpProvider


# <generated: GetNetworkResult>
@dataclass(frozen=True)
class GetNetworkResult(LookupResult):
    """What a lookup found: the id and every output of ``Network``, under the same
    names; the outputs it keeps secret are secret Outputs."""

    name: str | None
    default: bool | None
    cidr: str | None
    cidr_v4: str | None
    gateway_ipv4: str | None
    label: str | None
    status: str | None
    ipv4_enabled: bool | None
    nameservers_v4: list[str] | None
    free_ip_count: int | None
    region: str | None


# </generated>


@routed
def get_network(
    id: str | None = None,
    label: str | None = None,
    default: bool | None = None,
    region: str | None = None,
    name: str | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> GetNetworkResult:
    """The network with this ``id``, or ``label``, or generated ``name``, or the region's
    default network (``default=True``), in ``region`` (the configured one when left out). A
    ``label`` or ``name`` no network has exactly finds, as the Terraform data source does, the
    network whose id, name or label it is, or the one whose id, name or label holds it."""
    keys = {"label": label, "name": name, "default": default}
    id_, outputs = find(NetworkProvider(), id=id, keys=keys, region=region)
    return GetNetworkResult.of(id_, outputs)


def get_network_output(
    id: pulumi.Input[str] | None = None,
    label: pulumi.Input[str] | None = None,
    default: pulumi.Input[bool] | None = None,
    region: pulumi.Input[str] | None = None,
    name: pulumi.Input[str] | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> pulumi.Output[GetNetworkResult]:
    return lifted(
        get_network, opts=opts, id=id, label=label, default=default, region=region, name=name
    )


# <generated: GetFirewallResult>
@dataclass(frozen=True)
class GetFirewallResult(LookupResult):
    """What a lookup found: the id and every output of ``Firewall``, under the same
    names; the outputs it keeps secret are secret Outputs."""

    name: str | None
    account_id: str | None
    rules_count: int | None
    instance_count: int | None
    cluster_count: int | None
    loadbalancer_count: int | None
    default: str | None
    label: str | None
    network_id: str | None
    rules: list[dict[str, Any]] | None
    region: str | None
    create_default_rules: bool | None
    ingress_rules: list[dict[str, Any]] | None
    egress_rules: list[dict[str, Any]] | None


# </generated>


@routed
def get_firewall(
    id: str | None = None,
    name: str | None = None,
    network_id: str | None = None,
    region: str | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> GetFirewallResult:
    """The firewall with this ``id`` or ``name`` (and ``network_id``, when given)."""
    keys = {"name": name, "network_id": network_id}
    id_, outputs = find(FirewallProvider(), id=id, keys=keys, region=region)
    return GetFirewallResult.of(id_, outputs)


def get_firewall_output(
    id: pulumi.Input[str] | None = None,
    name: pulumi.Input[str] | None = None,
    network_id: pulumi.Input[str] | None = None,
    region: pulumi.Input[str] | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> pulumi.Output[GetFirewallResult]:
    return lifted(get_firewall, opts=opts, id=id, name=name, network_id=network_id, region=region)


# <generated: GetLoadBalancerResult>
@dataclass(frozen=True)
class GetLoadBalancerResult(LookupResult):
    """What a lookup found: the id and every output of ``LoadBalancer``, under the same
    names; the outputs it keeps secret are secret Outputs."""

    name: str | None
    network_id: str | None
    service_name: str | None
    algorithm: str | None
    backends: list[dict[str, Any]] | None
    public_ip: str | None
    private_ip: str | None
    firewall_id: str | None
    state: str | None
    max_concurrent_requests: int | None
    created_at: str | None
    external_traffic_policy: str | None
    session_affinity: str | None
    session_affinity_config_timeout: int | None
    enable_proxy_protocol: str | None
    region: str | None


# </generated>


@routed
def get_load_balancer(
    id: str | None = None,
    name: str | None = None,
    region: str | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> GetLoadBalancerResult:
    """The load balancer with this ``id`` or ``name``."""
    id_, outputs = find(LoadBalancerProvider(), id=id, keys={"name": name}, region=region)
    return GetLoadBalancerResult.of(id_, outputs)


def get_load_balancer_output(
    id: pulumi.Input[str] | None = None,
    name: pulumi.Input[str] | None = None,
    region: pulumi.Input[str] | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> pulumi.Output[GetLoadBalancerResult]:
    return lifted(get_load_balancer, opts=opts, id=id, name=name, region=region)


# <generated: GetReservedIpResult>
@dataclass(frozen=True)
class GetReservedIpResult(LookupResult):
    """What a lookup found: the id and every output of ``ReservedIp``, under the same
    names; the outputs it keeps secret are secret Outputs."""

    name: str | None
    ip: str | None
    assigned_to: dict[str, Any] | None
    assigned_to_id: str | None
    assign_to_id: str | None
    region: str | None


# </generated>


@routed
def get_reserved_ip(
    id: str | None = None,
    name: str | None = None,
    ip: str | None = None,
    region: str | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> GetReservedIpResult:
    """The reserved IP with this ``id``, ``name`` or address (``ip``); ``assigned_to_id`` is the
    load balancer it is assigned to, None when unassigned."""
    keys = {"name": name, "ip": ip}
    id_, outputs = find(ReservedIpProvider(), id=id, keys=keys, region=region)
    return GetReservedIpResult.of(id_, outputs)


def get_reserved_ip_output(
    id: pulumi.Input[str] | None = None,
    name: pulumi.Input[str] | None = None,
    ip: pulumi.Input[str] | None = None,
    region: pulumi.Input[str] | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> pulumi.Output[GetReservedIpResult]:
    return lifted(get_reserved_ip, opts=opts, id=id, name=name, ip=ip, region=region)
