from __future__ import annotations

from collections.abc import Sequence

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.errors import NotFoundError
from altostratus.client.models import Webhook, WebhookCreated

PATH = "/v2/webhooks"


class WebhooksAPI(Collection):
    """Webhooks belong to the account, not to a region: these calls send no region."""

    _regional = False

    def list(self) -> list[Webhook]:
        return self._many(Webhook, PATH)

    def get(self, id: str) -> Webhook:
        """The webhook, found in the list (the API has no call for one webhook)."""
        for webhook in self.list():
            if webhook.id == id:
                return webhook
        raise NotFoundError(
            404, "database_webhook_not_found", f"No webhook {id}.", method="GET", path=PATH
        )

    def create(
        self, *, url: str, events: Sequence[str] | None = None, secret: str | None = None
    ) -> WebhookCreated:
        """Subscribe `url` to `events` (service default `["*"]`); the secret is generated when
        left out and read back with `get`."""
        body = fields(url=url, events=None if events is None else list(events), secret=secret)
        return self._one(WebhookCreated, "POST", PATH, body=body)

    def update(
        self,
        id: str,
        *,
        url: str | None = None,
        events: Sequence[str] | None = None,
        secret: str | None = None,
    ) -> Webhook:
        """Change a webhook; this also enables it again when it was disabled."""
        body = fields(url=url, events=None if events is None else list(events), secret=secret)
        return self._one(Webhook, "PUT", f"{PATH}/{segment(id)}", body=body)

    def delete(self, id: str) -> None:
        self._send("DELETE", f"{PATH}/{segment(id)}")

    def test(self, id: str) -> None:
        """Ask the service to send a test delivery to the webhook's URL."""
        self._send("POST", f"{PATH}/{segment(id)}/test")
