"""Where deliveries go, and who answers that."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class DeliveryTarget:
    webhook_id: str
    account_id: str
    url: str
    secret: str
    events: tuple[str, ...]


class WebhookDirectory(Protocol):
    """The emulator's state as the dispatcher reads and updates it; must be thread-safe."""

    def delivery_targets(self, account_id: str, event: str) -> list[DeliveryTarget]:
        """Enabled webhooks of the account subscribed to ``event`` (``"*"`` matches all)."""
        ...

    def delivery_target(self, webhook_id: str) -> DeliveryTarget | None:
        """The webhook's current target; None when it was deleted or disabled."""
        ...

    def record_delivery_failure(self, webhook_id: str, reason: str, disable: bool) -> None:
        """``failures += 1``, ``last_failure_reason = reason``, ``disabled |= disable``."""
        ...
