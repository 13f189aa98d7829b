from __future__ import annotations

from typing import Any

from pydantic import field_validator

from altostratus.client.models._base import ResponseModel


class Network(ResponseModel):
    id: str
    name: str | None = None
    """Internal name the service generates."""
    default: bool | None = None
    """Whether this is the region's default network (which cannot be deleted)."""
    cidr: str | None = None
    gateway_ipv4: str | None = None
    label: str | None = None
    """Display name."""
    status: str | None = None
    ipv4_enabled: bool | None = None
    nameservers_v4: list[str] | None = None
    free_ip_count: int | None = None
    region: str | None = None
    """The network's region code (``LON1``), where an answer carries it; the service's list
    items spell it in lower case, read here as the code."""
    vlan_connect: dict[str, Any] | None = None
    """The network's VLAN attachment (``vlan_id``, ``cidr_v4``, ...), where an answer carries
    one."""

    @property
    def cidr_v4(self) -> str | None:
        """The network's range under the name a create takes it by (and the ``Network``
        resource outputs): the answer's ``cidr``."""
        return self.cidr

    @field_validator("region", mode="before")
    @classmethod
    def _region_code(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value


class NetworkCreated(Network):
    """The create answer (``id``, ``result``, ``label``, often ``name``); `networks.get(id)` has
    the full record."""

    result: str | None = None


class NetworkUpdated(Network):
    """The update answer (``id``, ``result``, ``label``)."""

    result: str | None = None
