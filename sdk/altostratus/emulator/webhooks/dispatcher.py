"""The delivery worker."""

from __future__ import annotations

from altostratus.emulator.clock import Clock
from altostratus.emulator.webhooks.targets import DeliveryTarget, WebhookDirectory


class WebhookDispatcher:
    def __init__(
        self, directory: WebhookDirectory, clock: Clock, *, timeout_seconds: float = 5.0
    ) -> None:
        self._directory = directory
        self._clock = clock
        self._timeout = timeout_seconds

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def emit(self, account_id: str, event: str, resource_id: str) -> None:
        raise NotImplementedError

    def send_test(self, target: DeliveryTarget) -> None:
        raise NotImplementedError

    def deliveries(self) -> list[dict[str, object]]:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError

    def wait_idle(self, timeout: float = 10.0) -> bool:
        raise NotImplementedError
