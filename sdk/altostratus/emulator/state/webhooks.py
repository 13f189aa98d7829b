"""Webhooks: subscriptions per account (not per region), their secrets and delivery health."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from altostratus.emulator.errors import invalid, not_found
from altostratus.emulator.state.base import new_id
from altostratus.emulator.webhooks.events import EVENT_NAMES as SPEC_EVENT_NAMES

EVENT_NAMES = ("*", *SPEC_EVENT_NAMES)
"""What a subscription may name: every event of the spec, or ``*`` for all."""


def check_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise invalid("url", "The parameter url must be an http or https URL")
    return url


def check_events(value: Any) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(e, str) for e in value):
        raise invalid("events", "The parameter events must be a non-empty array of event names")
    unknown = [e for e in value if e not in EVENT_NAMES]
    if unknown:
        raise invalid("events", f"Unknown event name(s): {', '.join(unknown)}")
    return list(dict.fromkeys(value))


@dataclass
class Webhook:
    id: str
    account_id: str
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


@dataclass
class Webhooks:
    records: dict[str, Webhook] = field(default_factory=dict)

    def get(self, account_id: str, webhook_id: str) -> Webhook:
        webhook = self.records.get(webhook_id)
        if webhook is None or webhook.account_id != account_id:
            raise not_found("webhook", "webhook")
        return webhook

    def all(self, account_id: str) -> list[Webhook]:
        return [w for w in self.records.values() if w.account_id == account_id]

    def create(
        self, account_id: str, created_at: str, *, url: str, events: list[str], secret: str | None
    ) -> Webhook:
        webhook = Webhook(
            id=new_id(),
            account_id=account_id,
            url=url,
            events=events,
            secret=secret if secret is not None else secrets.token_hex(20),
            created_at=created_at,
        )
        self.records[webhook.id] = webhook
        return webhook

    def update(self, webhook: Webhook, changes: dict[str, Any]) -> None:
        """Given fields change, and a webhook disabled by failed deliveries is enabled again."""
        for key, value in changes.items():
            setattr(webhook, key, value)
        webhook.disabled = False
