"""/v2/webhooks: account-wide, whatever the region."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.call import SUCCESS, Call, Route
from altostratus.emulator.state import target_of
from altostratus.emulator.state.base import iso
from altostratus.emulator.state.webhooks import check_events, check_url


def list_webhooks(call: Call) -> list[dict[str, Any]]:
    return [w.describe() for w in call.state.webhooks.all(call.account_id)]


def _events(call: Call) -> list[str] | None:
    if "events" not in call.params:
        return None
    return check_events(call.params.structured("events"))


def create_webhook(call: Call) -> dict[str, Any]:
    url = check_url(call.params.required_text("url"))
    events = _events(call) or ["*"]
    secret = call.params.text("secret", allow_empty=False)
    created_at = iso(call.state.clock.now())
    webhook = call.state.webhooks.create(
        call.account_id, created_at, url=url, events=events, secret=secret
    )
    return {"result": "success", "id": webhook.id}


def update_webhook(call: Call, webhook_id: str) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    url = call.params.text("url", allow_empty=False)
    if url is not None:
        changes["url"] = check_url(url)
    events = _events(call)
    if events is not None:
        changes["events"] = events
    secret = call.params.text("secret", allow_empty=False)
    if secret is not None:
        changes["secret"] = secret
    webhook = call.state.webhooks.get(call.account_id, webhook_id)
    call.state.webhooks.update(webhook, changes)
    return webhook.describe()


def delete_webhook(call: Call, webhook_id: str) -> dict[str, Any]:
    webhook = call.state.webhooks.get(call.account_id, webhook_id)
    del call.state.webhooks.records[webhook.id]
    return dict(SUCCESS)


def test_webhook(call: Call, webhook_id: str) -> dict[str, Any]:
    """The delivery worker sends the spec's test delivery (first subscribed event, random id)."""
    target = target_of(call.state.webhooks.get(call.account_id, webhook_id))
    call.effects.after(lambda: call.events.send_test(target))
    return dict(SUCCESS)


ROUTES = [
    Route("GET", "/webhooks", list_webhooks),
    Route("POST", "/webhooks", create_webhook),
    Route("PUT", "/webhooks/<webhook_id>", update_webhook),
    Route("DELETE", "/webhooks/<webhook_id>", delete_webhook),
    Route("POST", "/webhooks/<webhook_id>/test", test_webhook),
]
