"""Which of the Terraform provider's resources this library carries, and how.

Each carried type names the resource it becomes and, in the order the program writes them, the
attributes that become its inputs (``attribute -> input``). What the table does not list is
either computed by the service (ids, a network's ``name``, an address's ``ip``) or handled
apart: a firewall's inline rules (``_rules``), a reserved IP's assignment, an object store's
owner key, and a credential's keys, which are never written (the adoption reads them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    resource: str
    """The class of ``altostratus`` it becomes: ``Network``."""
    inputs: tuple[tuple[str, str], ...]
    """``(source attribute, input)`` pairs, in the order written."""
    not_carried: tuple[str, ...] = ()
    """Attributes no input of the resource takes; the report names those the state sets."""
    unwritten: tuple[str, ...] = ()
    """Secret attributes left out on purpose: the adoption reads them from the service."""


CARRIED = {
    "civo_network": Kind(
        "Network",
        (
            ("label", "label"),
            ("region", "region"),
            ("cidr_v4", "cidr_v4"),
            ("nameservers_v4", "nameservers_v4"),
        ),
        not_carried=(
            "vlan_id",
            "vlan_cidr_v4",
            "vlan_gateway_ip_v4",
            "vlan_physical_interface",
            "vlan_allocation_pool_v4_start",
            "vlan_allocation_pool_v4_end",
        ),
    ),
    "civo_firewall": Kind(
        "Firewall",
        (
            ("name", "name"),
            ("network_id", "network_id"),
            ("region", "region"),
            ("create_default_rules", "create_default_rules"),
        ),
    ),
    # The standalone rule of the provider's older versions.
    "civo_firewall_rule": Kind(
        "FirewallRule",
        (
            ("firewall_id", "firewall_id"),
            ("protocol", "protocol"),
            ("start_port", "start_port"),
            ("end_port", "end_port"),
            ("cidr", "cidr"),
            ("direction", "direction"),
            ("label", "label"),
            ("action", "action"),
            ("region", "region"),
        ),
    ),
    "civo_reserved_ip": Kind("ReservedIp", (("name", "name"), ("region", "region"))),
    "civo_object_store_credential": Kind(
        "ObjectStoreCredential",
        (("name", "name"), ("region", "region")),
        unwritten=("access_key_id", "secret_access_key"),
    ),
    "civo_object_store": Kind(
        "ObjectStore",
        (("name", "name"), ("region", "region"), ("max_size_gb", "max_size_gb")),
    ),
}
"""The carried types, in the order the program declares them: what a resource refers to
comes before it."""

SHAPES = {
    "nameservers_v4": "texts",
    "cidr": "texts",
    "create_default_rules": "boolean",
    "max_size_gb": "whole number",
    "start_port": "port",
    "end_port": "port",
}
"""The shape of each input that is not text: ``texts`` a list of text, ``port`` text or a
whole number (written as text)."""

REFERENCES = {
    "network_id": ("Network",),
    "firewall_id": ("Firewall",),
    "assign_to_id": ("LoadBalancer",),
}
"""Inputs holding another resource's id, and the resources they may name: written as that
resource's ``.id`` when the program declares it."""

LOOKUPS = {
    "civo_network": "get_network",
    "civo_firewall": "get_firewall",
    "civo_loadbalancer": "get_load_balancer",
    "civo_reserved_ip": "get_reserved_ip",
    "civo_object_store": "get_object_store",
    "civo_object_store_credential": "get_object_store_credential",
}
"""The Terraform provider's data sources and the lookups that read the same records."""
