from __future__ import annotations

from altostratus.client.models._base import ResponseModel


class Network(ResponseModel):
    id: str
    name: str
    """Internal name the service generates."""
    default: bool
    """Whether this is the region's default network (which cannot be deleted)."""
    cidr: str
    gateway_ipv4: str
    label: str
    """Display name."""
    status: str
    ipv4_enabled: bool
    nameservers_v4: list[str]
    free_ip_count: int


class NetworkCreated(ResponseModel):
    """The create answer; `networks.get(id)` has the full record."""

    id: str
    result: str
    name: str
    label: str


class NetworkUpdated(ResponseModel):
    id: str
    result: str
    label: str
