"""Records as the spec shows them, for answers of the fake API."""

from __future__ import annotations

from typing import Any

NETWORK: dict[str, Any] = {
    "id": "n1",
    "name": "net-abc",
    "default": False,
    "cidr": "10.1.0.0/24",
    "gateway_ipv4": "10.1.0.1",
    "label": "backend",
    "status": "Active",
    "ipv4_enabled": True,
    "nameservers_v4": ["1.1.1.1"],
    "free_ip_count": 253,
}
RULE: dict[str, Any] = {
    "id": "r1",
    "firewall_id": "f1",
    "protocol": "tcp",
    "start_port": "443",
    "end_port": "443",
    "ports": "443",
    "cidr": ["0.0.0.0/0"],
    "direction": "ingress",
    "label": "https",
    "action": "allow",
}
FIREWALL: dict[str, Any] = {
    "id": "f1",
    "name": "web",
    "account_id": "a1",
    "rules_count": 1,
    "instance_count": 0,
    "cluster_count": 0,
    "loadbalancer_count": 0,
    "default": "false",
    "label": "",
    "network_id": "n1",
    "rules": [{k: v for k, v in RULE.items() if k != "firewall_id"}],
}
BACKEND: dict[str, Any] = {
    "ip": "10.1.0.5",
    "protocol": "TCP",
    "source_port": 80,
    "target_port": 8080,
}
LOAD_BALANCER: dict[str, Any] = {
    "id": "lb1",
    "name": "front",
    "network_id": "n1",
    "service_name": "svc-front",
    "algorithm": "round_robin",
    "backends": [BACKEND],
    "public_ip": "203.0.113.7",
    "private_ip": "10.1.0.9",
    "firewall_id": "",
    "state": "available",
    "max_concurrent_requests": 10000,
    "created_at": "2026-01-01T00:00:00Z",
}
RESERVED_IP: dict[str, Any] = {
    "id": "ip1",
    "name": "edge",
    "ip": "203.0.113.9",
    "assigned_to": {"id": "lb1", "type": "loadbalancer", "name": "front"},
}
OBJECT_STORE: dict[str, Any] = {
    "id": "s1",
    "name": "media",
    "max_size_gb": 500,
    "owner_info": {"name": "media-owner", "access_key_id": "AKIAEXAMPLE000000000"},
    "status": "ready",
    "objectstore_endpoint": "http://127.0.0.1:8788/media-ab12cd",
}
CREDENTIAL: dict[str, Any] = {
    "id": "c1",
    "name": "media-owner",
    "access_key_id": "AKIAEXAMPLE000000000",
    "secret_access_key_id": "s" * 40,
    "max_size_gb": 500,
    "suspended": False,
    "status": "ready",
}
WEBHOOK: dict[str, Any] = {
    "id": "w1",
    "created_at": "2026-01-01T00:00:00+00:00",
    "events": ["*"],
    "url": "https://hooks.test/in",
    "secret": "0123456789abcdef0123456789abcdef01234567",
    "disabled": False,
    "failures": 0,
    "last_failure_reason": "",
}
_QUOTA_NAMES = [
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
]
QUOTA: dict[str, Any] = {
    "id": "q1",
    "default_user_id": "u1",
    "default_user_email_address": "ops@example.com",
    **{f"{name}_limit": 10 for name in _QUOTA_NAMES},
    **{f"{name}_usage": 1 for name in _QUOTA_NAMES},
    "clusters_lifetime_count": 0,
    "clusters_current_count": 0,
    "instances_lifetime_count": 0,
}


def page(items: list[dict[str, Any]], number: int = 1, pages: int = 1) -> dict[str, Any]:
    return {"page": number, "per_page": 100, "pages": pages, "items": items}
