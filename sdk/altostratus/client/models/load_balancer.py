from __future__ import annotations

from altostratus.client.models._base import RequestModel, ResponseModel


class LoadBalancerBackend(RequestModel):
    """A backend as sent in a request: every field required, unknown fields refused."""

    ip: str
    protocol: str
    """TCP or UDP."""
    source_port: int
    target_port: int


class LoadBalancerBackendRecord(ResponseModel):
    """A backend as the service answers it; the official clients' answers may leave out
    ``protocol``."""

    ip: str | None = None
    protocol: str | None = None
    source_port: int | None = None
    target_port: int | None = None
    health_check_port: int | None = None
    """The port health checks probe, when one was given."""


class LoadBalancer(ResponseModel):
    id: str
    name: str | None = None
    network_id: str | None = None
    service_name: str | None = None
    """Absent from the create answer."""
    algorithm: str | None = None
    """round_robin or least_connections."""
    backends: list[LoadBalancerBackendRecord] | None = None
    public_ip: str | None = None
    """Empty until the balancer is ready."""
    private_ip: str | None = None
    """Empty until the balancer is ready."""
    firewall_id: str | None = None
    state: str | None = None
    """Empty right after creation, `available` once ready."""
    max_concurrent_requests: int | None = None
    created_at: str | None = None
    """ISO 8601 UTC."""
    external_traffic_policy: str | None = None
    """Cluster or Local."""
    session_affinity: str | None = None
    """None or ClientIP."""
    session_affinity_config_timeout: int | None = None
    enable_proxy_protocol: str | None = None
    """send, accept, send_accept, or empty for none."""
