"""Webhooks: subscriptions per account (not per region), their secrets and delivery health."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from altostratus.emulator.reading.bodies import WebhookCreate, WebhookUpdate
from altostratus.emulator.state.base import Effects, Record, Store, entry, iso, new_id
from altostratus.emulator.state.ids import random_hex

ACCOUNT_WIDE = ""
"""The region of every webhook: a subscription covers the account in all regions."""


@dataclass
class Webhook(Record):
    url: str
    events: tuple[str, ...]
    secret: str
    created_at: str
    disabled: bool = False
    failures: int = 0
    last_failure_reason: str = ""

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created_at": self.created_at,
            "events": list(self.events),
            "url": self.url,
            "secret": self.secret,
            "disabled": self.disabled,
            "failures": self.failures,
            "last_failure_reason": self.last_failure_reason,
        }


class Webhooks(Store[Webhook, WebhookCreate, WebhookUpdate]):
    """Account-wide: the region a call names is not kept, and lookups take region None."""

    kind = "webhook"
    label = "webhook"

    def answer_inputs(self, record: Record) -> Hashable:
        return ()  # the answer shows the record's own fields only

    def seed_entry(self, webhook: Webhook) -> dict[str, Any]:
        return entry(webhook, url=webhook.url, events=list(webhook.events), secret=webhook.secret)

    def create(
        self, account_id: str, region: str, effects: Effects, fields: WebhookCreate
    ) -> Webhook:
        webhook = Webhook(
            id=new_id(),
            account_id=account_id,
            region=ACCOUNT_WIDE,
            url=fields.url,
            events=fields.events or ("*",),
            secret=random_hex(20) if fields.secret is None else fields.secret,
            created_at=iso(self.state.clock.now()),
        )
        self.records[webhook.id] = webhook
        return webhook

    def update(self, webhook: Webhook, effects: Effects, changes: WebhookUpdate) -> None:
        """Given fields change, and a webhook disabled by failed deliveries is enabled again."""
        if changes.url is not None:
            webhook.url = changes.url
        if changes.events is not None:
            webhook.events = changes.events
        if changes.secret is not None:
            webhook.secret = changes.secret
        webhook.disabled = False

    def remove(self, webhook: Webhook, effects: Effects) -> None:
        del self.records[webhook.id]
