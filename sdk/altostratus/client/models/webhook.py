from __future__ import annotations

from pydantic import Field

from altostratus.client.models._base import ResponseModel


class Webhook(ResponseModel):
    id: str
    created_at: str
    events: list[str]
    url: str
    secret: str = Field(repr=False)
    """Signing secret of the deliveries (kept out of the repr)."""
    disabled: bool
    failures: int
    """Count of failed deliveries."""
    last_failure_reason: str | None = None


class WebhookCreated(ResponseModel):
    """The create answer; `webhooks.get(id)` has the full record, secret included."""

    id: str
    result: str
