from __future__ import annotations

from pydantic import field_validator

from altostratus.client.models._base import RequestModel, ResponseModel


class LoadBalancerBackend(RequestModel):
    """A backend; refuses unknown fields when built for a request."""

    ip: str
    protocol: str
    """TCP or UDP."""
    source_port: int
    target_port: int


class LoadBalancer(ResponseModel):
    id: str
    name: str
    network_id: str
    service_name: str | None = None
    """Absent from the create answer."""
    algorithm: str
    """round_robin or least_connections."""
    backends: list[LoadBalancerBackend]
    public_ip: str
    """Empty until the balancer is ready."""
    private_ip: str
    """Empty until the balancer is ready."""
    firewall_id: str | None = None
    state: str
    """Empty right after creation, `available` once ready."""
    max_concurrent_requests: int
    created_at: str
    """ISO 8601 UTC."""

    @field_validator("backends", mode="before")
    @classmethod
    def _known_backend_fields(cls, value: object) -> object:
        if not isinstance(value, list):
            return value
        known = LoadBalancerBackend.model_fields
        return [
            {k: v for k, v in item.items() if k in known} if isinstance(item, dict) else item
            for item in value
        ]
