from __future__ import annotations

from pydantic import Field

from altostratus.client.models._base import ResponseModel


class Webhook(ResponseModel):
    id: str
    created_at: str | None = None
    events: list[str] | None = None
    url: str | None = None
    secret: str | None = Field(default=None, repr=False)
    """Signing secret of the deliveries (kept out of the repr)."""
    disabled: bool | None = None
    failures: int | None = None
    """Count of failed deliveries."""
    last_failure_reason: str | None = None


class WebhookCreated(Webhook):
    """The create answer: ``id`` and ``result`` in the spec, the whole webhook from some
    services; `webhooks.get(id)` has the full record, secret included."""

    result: str | None = None
