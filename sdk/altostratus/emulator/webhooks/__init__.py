"""Webhook deliveries: a worker that signs, sends, times out and retries on emulated time."""

from __future__ import annotations

from altostratus.emulator.webhooks.dispatcher import WebhookDispatcher
from altostratus.emulator.webhooks.targets import DeliveryTarget, WebhookDirectory

__all__ = ["DeliveryTarget", "WebhookDirectory", "WebhookDispatcher"]
