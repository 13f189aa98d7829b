from __future__ import annotations

from altostratus.client.models._base import ResponseModel


class ReservedIpAssignment(ResponseModel):
    id: str | None = None
    type: str | None = None
    """The kind of resource, e.g. loadbalancer."""
    name: str | None = None


class ReservedIp(ResponseModel):
    id: str
    name: str | None = None
    ip: str | None = None
    """Absent from the create and update answers."""
    assigned_to: ReservedIpAssignment | None = None
    """Returned by `get` only; None when unassigned."""
