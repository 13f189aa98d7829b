"""/v2/webhooks: account-wide, whatever the region."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.call import SUCCESS, Call, RouteTable
from altostratus.emulator.errors import invalid
from altostratus.emulator.state import target_of
from altostratus.emulator.state.webhooks import EVENT_NAMES, Webhook
from altostratus.emulator.webhooks.sending import url_problem

ROUTES = RouteTable(regional=False)


@ROUTES.add("GET", "/webhooks", "List webhooks", "[Webhook]")
def list_webhooks(call: Call) -> list[dict[str, Any]]:
    return [w.describe() for w in call.state.webhooks.all(call.account_id)]


def _webhook(call: Call, webhook_id: str) -> Webhook:
    return call.state.webhooks.get(call.account_id, None, webhook_id)


def _url(url: str) -> str:
    """A URL a delivery can be sent to (``url_problem``), or a 400 saying why not."""
    problem = url_problem(url)
    if problem is not None:
        raise invalid("url", f"The parameter url cannot be used: {problem}")
    return url


def _events(call: Call) -> list[str] | None:
    """The subscribed event names without repeats; None when absent."""
    if "events" not in call.params:
        return None
    value = call.params.structured("events")
    if not isinstance(value, list) or not value or not all(isinstance(e, str) for e in value):
        raise invalid("events", "The parameter events must be a non-empty array of event names")
    unknown = [e for e in value if e not in EVENT_NAMES]
    if unknown:
        raise invalid("events", f"Unknown event name(s): {', '.join(unknown)}")
    return list(dict.fromkeys(value))


@ROUTES.add("POST", "/webhooks", "Create a webhook", "WebhookCreated", "WebhookCreate")
def create_webhook(call: Call) -> dict[str, Any]:
    fields = {
        "url": _url(call.params.required_text("url")),
        "events": _events(call),
        "secret": call.params.text("secret", allow_empty=False),
    }
    webhook = call.state.webhooks.create(call.account_id, call.region, call.effects, fields)
    return {"result": "success", "id": webhook.id}


@ROUTES.add("PUT", "/webhooks/{id}", "Update a webhook", "Webhook", "WebhookUpdate")
def update_webhook(call: Call, webhook_id: str) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    url = call.params.text("url", allow_empty=False)
    if url is not None:
        changes["url"] = _url(url)
    events = _events(call)
    if events is not None:
        changes["events"] = events
    secret = call.params.text("secret", allow_empty=False)
    if secret is not None:
        changes["secret"] = secret
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
