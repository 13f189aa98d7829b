from __future__ import annotations

from pydantic import field_validator

from altostratus.client.models._base import ResponseModel
from altostratus.client.models.firewall_rule import FirewallRule


class Firewall(ResponseModel):
    id: str
    name: str
    account_id: str
    rules_count: int
    instance_count: int
    cluster_count: int
    loadbalancer_count: int
    default: str
    """Boolean-like text."""
    label: str
    network_id: str
    rules: list[FirewallRule]

    @field_validator("default", mode="before")
    @classmethod
    def _bool_as_text(cls, value: object) -> object:
        return str(value).lower() if isinstance(value, bool) else value


class FirewallCreated(ResponseModel):
    """The create answer; `firewalls.get(id)` has the full record."""

    id: str
    result: str
    name: str


class FirewallUpdated(ResponseModel):
    """The update answer; `firewalls.get(id)` has the full record."""

    id: str
    result: str
    name: str
