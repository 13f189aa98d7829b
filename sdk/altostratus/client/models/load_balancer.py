from __future__ import annotations

from altostratus.client.models._base import RequestModel, ResponseModel


class LoadBalancerBackend(RequestModel):
    """A backend as sent in a request: every field required, unknown fields refused."""

    ip: str
    protocol: str
    """TCP or UDP."""
    source_port: int
    target_port: int
    health_check_port: int | None = None
    """The port health checks probe; the target port when left out."""


class LoadBalancerBackendRecord(ResponseModel):
    """A backend as the service answers it; the official clients' answers may leave out
    ``protocol``."""

    ip: str | None = None
    protocol: str | None = None
    source_port: int | None = None
    target_port: int | None = None
    health_check_port: int | None = None
    """The port health checks probe, when one was given."""


class LoadBalancerOptions(ResponseModel):
    server_timeout: int | str | None = None
    client_timeout: int | str | None = None


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
    options: LoadBalancerOptions | None = None
    """Server and client timeouts, as sent."""
    firewall_rule: str | None = None
    reserved_ip_id: str | None = None
    """The reserved IP assigned to the balancer (absent when none is)."""
    reserved_ip_name: str | None = None
    reserved_ip: str | None = None
    """The reserved IP's address."""
