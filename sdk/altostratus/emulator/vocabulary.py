"""The service's vocabulary: its regions, the values its enumerated fields take, and the names of
its events and quota fields.

The stores, the request bodies (``bodies``) and the answers' schemas (``openapi_schemas``) all read
it; it reads none of them, so each of those can import the others' needs from here.
"""

from __future__ import annotations

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
)
