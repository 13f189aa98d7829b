"""/v2/webhooks: account-wide, whatever the region."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import WebhookCreate, WebhookUpdate
from altostratus.emulator.routes.call import SUCCESS, Call, RouteTable
from altostratus.emulator.state import target_of
from altostratus.emulator.state.base import Encoded
from altostratus.emulator.state.webhooks import Webhook

ROUTES = RouteTable(regional=False)


@ROUTES.add("GET", "/webhooks", "List webhooks", "[Webhook]")
def list_webhooks(call: Call) -> Encoded:
    webhooks = call.state.webhooks
    return webhooks.answers(webhooks.all(call.account_id))


def _webhook(call: Call, webhook_id: str) -> Webhook:
    return call.state.webhooks.get(call.account_id, None, webhook_id)


@ROUTES.add("POST", "/webhooks", "Create a webhook", "WebhookCreated", WebhookCreate)
def create_webhook(call: Call, fields: WebhookCreate) -> dict[str, Any]:
    webhook = call.state.webhooks.create(call.account_id, call.region, call.effects, fields)
    return {"result": "success", "id": webhook.id}


@ROUTES.add("PUT", "/webhooks/{id}", "Update a webhook", "Webhook", WebhookUpdate)
def update_webhook(call: Call, webhook_id: str, changes: WebhookUpdate) -> dict[str, Any]:
    webhook = _webhook(call, webhook_id)
    call.state.webhooks.update(webhook, call.effects, changes)
    return webhook.describe()


@ROUTES.add("DELETE", "/webhooks/{id}", "Delete a webhook", "Result")
def delete_webhook(call: Call, webhook_id: str) -> dict[str, Any]:
    call.state.webhooks.delete(_webhook(call, webhook_id), call.effects)
    return dict(SUCCESS)


@ROUTES.add("POST", "/webhooks/{id}/test", "Send a test delivery", "Result")
def test_webhook(call: Call, webhook_id: str) -> dict[str, Any]:
    """The delivery worker sends the spec's test delivery (first subscribed event, random id)."""
    target = target_of(_webhook(call, webhook_id))
    call.effects.after(lambda: call.events.send_test(target))
    return dict(SUCCESS)
