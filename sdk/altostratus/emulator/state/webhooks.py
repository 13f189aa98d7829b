"""Webhooks: subscriptions per account (not per region), their secrets and delivery health."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from altostratus.emulator.state.base import Effects, Record, Store, iso, new_id
from altostratus.emulator.webhooks.events import EVENT_NAMES as SPEC_EVENT_NAMES

EVENT_NAMES = ("*", *SPEC_EVENT_NAMES)
"""What a subscription may name: every event of the spec, or ``*`` for all."""


ACCOUNT_WIDE = ""
"""The region of every webhook: a subscription covers the account in all regions."""


@dataclass
class Webhook(Record):
    url: str
    events: list[str]
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


class Webhooks(Store[Webhook]):
    """Account-wide: the region a call names is not kept, and lookups take region None."""

    kind = "webhook"
    label = "webhook"

    def create(
        self, account_id: str, region: str, effects: Effects, fields: Mapping[str, Any]
    ) -> Webhook:
        """``url``; optional ``events`` (default all) and ``secret`` (made when absent)."""
        secret = fields.get("secret")
        webhook = Webhook(
            id=new_id(),
            account_id=account_id,
            region=ACCOUNT_WIDE,
            url=fields["url"],
            events=fields.get("events") or ["*"],
            secret=secret if secret is not None else secrets.token_hex(20),
            created_at=iso(self.state.clock.now()),
        )
        self.records[webhook.id] = webhook
        return webhook

    def update(self, webhook: Webhook, effects: Effects, changes: Mapping[str, Any]) -> None:
        """Given fields change, and a webhook disabled by failed deliveries is enabled again."""
        for key, value in changes.items():
            setattr(webhook, key, value)
        webhook.disabled = False

    def remove(self, webhook: Webhook, effects: Effects) -> None:
        del self.records[webhook.id]
