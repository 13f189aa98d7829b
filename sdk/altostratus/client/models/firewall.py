from __future__ import annotations

from pydantic import field_validator

from altostratus.client.models._base import ResponseModel
from altostratus.client.models.firewall_rule import FirewallRule


class Firewall(ResponseModel):
    id: str
    name: str | None = None
    account_id: str | None = None
    rules_count: int | None = None
    instance_count: int | None = None
    cluster_count: int | None = None
    loadbalancer_count: int | None = None
    default: str | None = None
    """Boolean-like text."""
    label: str | None = None
    network_id: str | None = None
    rules: list[FirewallRule] | None = None

    @field_validator("default", mode="before")
    @classmethod
    def _bool_as_text(cls, value: object) -> object:
        return str(value).lower() if isinstance(value, bool) else value


class FirewallCreated(Firewall):
    """The create answer (``id``, ``result``, ``name``); `firewalls.get(id)` has the full
    record."""

    result: str | None = None


class FirewallUpdated(ResponseModel):
    """The update answer: the spec's ``id``, ``result``, ``name``, or ``{"result": "success"}``
    alone (the shape of the official client's tests); `firewalls.get(id)` has the full record."""

    id: str | None = None
    result: str | None = None
    name: str | None = None
