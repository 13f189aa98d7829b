from __future__ import annotations

from pydantic import ConfigDict

from altostratus.client.models._base import ResponseModel


class Quota(ResponseModel):
    """Limits and usage of an account; each `<name>_usage` counts live resources.

    Counters the service adds beyond these are kept as extra fields: `model_dump()` and
    `model_extra` have them.
    """

    model_config = ConfigDict(extra="allow")

    id: str
    default_user_id: str | None = None
    default_user_email_address: str | None = None
    instance_count_limit: int | None = None
    instance_count_usage: int | None = None
    cpu_core_limit: int | None = None
    cpu_core_usage: int | None = None
    ram_mb_limit: int | None = None
    ram_mb_usage: int | None = None
    disk_gb_limit: int | None = None
    disk_gb_usage: int | None = None
    disk_volume_count_limit: int | None = None
    disk_volume_count_usage: int | None = None
    disk_snapshot_count_limit: int | None = None
    disk_snapshot_count_usage: int | None = None
    public_ip_address_limit: int | None = None
    public_ip_address_usage: int | None = None
    subnet_count_limit: int | None = None
    subnet_count_usage: int | None = None
    network_count_limit: int | None = None
    network_count_usage: int | None = None
    security_group_limit: int | None = None
    security_group_usage: int | None = None
    security_group_rule_limit: int | None = None
    security_group_rule_usage: int | None = None
    port_count_limit: int | None = None
    port_count_usage: int | None = None
    loadbalancer_count_limit: int | None = None
    loadbalancer_count_usage: int | None = None
    objectstore_gb_limit: int | None = None
    objectstore_gb_usage: int | None = None
    """Gigabytes: the sum of the object stores' sizes."""
    clusters_lifetime_count: int | None = None
    clusters_current_count: int | None = None
    instances_lifetime_count: int | None = None
