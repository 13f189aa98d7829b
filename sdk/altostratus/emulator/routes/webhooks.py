"""/v2/webhooks: account-wide, whatever the region."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.call import SUCCESS, Call, Route
from altostratus.emulator.state import target_of
from altostratus.emulator.state.webhooks import Webhook, check_events, check_url


def list_webhooks(call: Call) -> list[dict[str, Any]]:
    return [w.describe() for w in call.state.webhooks.all(call.account_id)]


def _webhook(call: Call, webhook_id: str) -> Webhook:
    return call.state.webhooks.get(call.account_id, None, webhook_id)


def _events(call: Call) -> list[str] | None:
    if "events" not in call.params:
        return None
    return check_events(call.params.structured("events"))


def create_webhook(call: Call) -> dict[str, Any]:
    fields = {
        "url": check_url(call.params.required_text("url")),
        "events": _events(call),
        "secret": call.params.text("secret", allow_empty=False),
    }
    webhook = call.state.webhooks.create(call.account_id, call.region, call.effects, fields)
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
    webhook = _webhook(call, webhook_id)
    call.state.webhooks.update(webhook, call.effects, changes)
    return webhook.describe()


def delete_webhook(call: Call, webhook_id: str) -> dict[str, Any]:
    call.state.webhooks.delete(_webhook(call, webhook_id), call.effects)
    return dict(SUCCESS)


def test_webhook(call: Call, webhook_id: str) -> dict[str, Any]:
    """The delivery worker sends the spec's test delivery (first subscribed event, random id)."""
    target = target_of(_webhook(call, webhook_id))
    call.effects.after(lambda: call.events.send_test(target))
    return dict(SUCCESS)


_ONE = "/webhooks/{id}"
ROUTES = [
    Route("GET", "/webhooks", list_webhooks, "List webhooks", "[Webhook]", regional=False),
    Route(
        "POST",
        "/webhooks",
        create_webhook,
        "Create a webhook",
        "WebhookCreated",
        "WebhookCreate",
        regional=False,
    ),
    Route(
        "PUT",
        _ONE,
        update_webhook,
        "Update a webhook",
        "Webhook",
        "WebhookUpdate",
        regional=False,
    ),
    Route("DELETE", _ONE, delete_webhook, "Delete a webhook", "Result", regional=False),
    Route(
        "POST",
        "/webhooks/{id}/test",
        test_webhook,
        "Send a test delivery",
        "Result",
        regional=False,
    ),
]
