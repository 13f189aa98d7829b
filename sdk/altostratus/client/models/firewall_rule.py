from __future__ import annotations

from altostratus.client.models._base import ResponseModel


class FirewallRule(ResponseModel):
    id: str
    firewall_id: str | None = None
    """Absent when the rule is embedded in its firewall."""
    protocol: str | None = None
    """tcp, udp or icmp."""
    start_port: str | None = None
    end_port: str | None = None
    ports: str | None = None
    """`"<start>"` or `"<start>-<end>"`; absent from the create answer."""
    cidr: list[str] | None = None
    direction: str | None = None
    """ingress or egress."""
    label: str | None = None
    action: str | None = None
    """allow or deny."""
