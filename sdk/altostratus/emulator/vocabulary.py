"""The service's vocabulary: its regions, the values its enumerated fields take, and the names of
its events and quota fields.

The stores, the request bodies (``requests.bodies``) and the answers' schemas (``openapi``) all read
it; it reads none of them, so each of those can import the others' needs from here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from altostratus.emulator.webhooks.events import EVENT_NAMES as SPEC_EVENT_NAMES

REGION_PLACES = {
    "LON1": ("London 1", "GB"),
    "FRA1": ("Frankfurt 1", "DE"),
    "NYC1": ("New York 1", "US"),
    "PHX1": ("Phoenix 1", "US"),
}
"""Each region's code, with its display name and country (ISO 3166 alpha-2)."""
REGIONS = tuple(REGION_PLACES)
DEFAULT_REGION = "LON1"
"""Every account's default region."""
COUNTRY_NAMES = {"GB": "United Kingdom", "DE": "Germany", "US": "United States"}
FEATURES = ("iaas", "kubernetes", "object_store", "loadbalancer", "dbaas", "volume")
"""What a region offers, as its ``features`` name them; the official CLI refuses to create what
a region's features do not list."""


@dataclass(frozen=True)
class Region:
    code: str
    name: str
    country: str
    features: tuple[str, ...] = FEATURES

    def describe(self, default: bool) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "type": "public",
            "out_of_capacity": False,
            "country": self.country,
            "country_name": COUNTRY_NAMES.get(self.country, self.country),
            "features": {feature: feature in self.features for feature in FEATURES},
            "default": default,
        }


_CODE = re.compile(r"[A-Z][A-Z0-9]{0,15}")
"""A region code: a letter, then letters and digits (the providers' check takes the same)."""


def extra_region(text: str) -> Region:
    """An extra region from ``CODE`` (every feature) or ``CODE:feature,feature`` (those only),
    as ``--extra-region`` and ``Emulator(extra_regions=...)`` take it."""
    code, colon, listed = text.strip().partition(":")
    code = code.upper()
    if not _CODE.fullmatch(code):
        raise ValueError(
            f"{text!r} is not CODE or CODE:feature,feature (a letter, then letters and digits)"
        )
    if code in REGION_PLACES:
        raise ValueError(f"{code} is a region already")
    features = tuple(f for f in listed.lower().split(",") if f) if colon else FEATURES
    unknown = sorted(set(features) - set(FEATURES))
    if unknown:
        raise ValueError(f"unknown region features {unknown}; known: {', '.join(FEATURES)}")
    return Region(code, code.title(), "GB", features)


def region_catalogue(extra: Sequence[str] = ()) -> dict[str, Region]:
    """The service's regions, then the extra ones, by code."""
    regions = {code: Region(code, name, country) for code, (name, country) in REGION_PLACES.items()}
    for text in extra:
        region = extra_region(text)
        regions[region.code] = region
    return regions


PROTOCOLS = ("tcp", "udp", "icmp")
DIRECTIONS = ("ingress", "egress")
DIRECTION_ALIASES = {"inbound": "ingress", "outbound": "egress"}
"""The official clients' other spellings of a direction."""
ACTIONS = ("allow", "deny")

ALGORITHMS = ("round_robin", "least_connections")
TRAFFIC_POLICIES = ("Cluster", "Local")
AFFINITIES = ("None", "ClientIP")
PROXY_PROTOCOLS = ("send", "accept", "send_accept")
BACKEND_PROTOCOLS = ("TCP", "UDP")

ASSIGNABLE = ("loadbalancer", "instance")
"""What a reserved IP's ``assign_to_type`` may name, as the official Go client sends it; the
emulator serves load balancers only, so an instance is never found."""

EVENT_NAMES = ("*", *SPEC_EVENT_NAMES)
"""What a webhook subscription may name: every event of the spec, or ``*`` for all."""

QUOTA_NAMES = (
    "instance_count",
    "cpu_core",
    "ram_mb",
    "disk_gb",
    "disk_volume_count",
    "disk_snapshot_count",
    "public_ip_address",
    "subnet_count",
    "network_count",
    "security_group",
    "security_group_rule",
    "port_count",
    "loadbalancer_count",
    "objectstore_gb",
)
