from __future__ import annotations

from altostratus.client.models._base import ResponseModel


class Quota(ResponseModel):
    """Limits and usage of an account; each `<name>_usage` counts live resources."""

    id: str
    default_user_id: str | None = None
    default_user_email_address: str | None = None
    instance_count_limit: int
    instance_count_usage: int
    cpu_core_limit: int
    cpu_core_usage: int
    ram_mb_limit: int
    ram_mb_usage: int
    disk_gb_limit: int
    disk_gb_usage: int
    disk_volume_count_limit: int
    disk_volume_count_usage: int
    disk_snapshot_count_limit: int
    disk_snapshot_count_usage: int
    public_ip_address_limit: int
    public_ip_address_usage: int
    subnet_count_limit: int
    subnet_count_usage: int
    network_count_limit: int
    network_count_usage: int
    security_group_limit: int
    security_group_usage: int
    security_group_rule_limit: int
    security_group_rule_usage: int
    port_count_limit: int
    port_count_usage: int
    clusters_lifetime_count: int
    clusters_current_count: int
    instances_lifetime_count: int
