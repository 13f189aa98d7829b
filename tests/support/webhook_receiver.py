"""A local webhook receiver and a small in-memory webhook directory, for the delivery tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from altostratus.emulator.webhooks import DeliveryTarget


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    """Records every POST; answers the queued statuses in turn, then ``default_status``."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.statuses: list[int] = []
        self.default_status = 200
        self.delay = 0.0
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver._lock:
                    receiver.received.append(Received(self.path, dict(self.headers), body))
                    status = receiver.statuses.pop(0) if receiver.statuses else None
                time.sleep(receiver.delay)
                self.send_response(status or receiver.default_status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"

    def reset(self) -> None:
        with self._lock:
            self.received.clear()
            self.statuses.clear()
        self.default_status = 200
        self.delay = 0.0


def serve_receiver() -> Iterator[Receiver]:
    receiver = Receiver()
    thread = threading.Thread(target=receiver.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.server.shutdown()
        receiver.server.server_close()


@dataclass
class WebhookState:
    target: DeliveryTarget
    disabled: bool = False
    failures: int = 0
    last_failure_reason: str = ""


@dataclass
class FakeWebhooks:
    """The emulator state's part the dispatcher talks to, kept in a dict."""

    hooks: dict[str, WebhookState] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, target: DeliveryTarget) -> DeliveryTarget:
        with self.lock:
            self.hooks[target.webhook_id] = WebhookState(target)
        return target

    def change(self, webhook_id: str, *, url: str, secret: str) -> None:
        with self.lock:
            state = self.hooks[webhook_id]
            state.target = replace(state.target, url=url, secret=secret)

    def delete(self, webhook_id: str) -> None:
        with self.lock:
            del self.hooks[webhook_id]

    def delivery_targets(self, account_id: str, event: str) -> list[DeliveryTarget]:
        with self.lock:
            return [
                state.target
                for state in self.hooks.values()
                if not state.disabled
                and state.target.account_id == account_id
                and ("*" in state.target.events or event in state.target.events)
            ]

    def delivery_target(self, webhook_id: str) -> DeliveryTarget | None:
        with self.lock:
            state = self.hooks.get(webhook_id)
            return None if state is None or state.disabled else state.target

    def record_delivery_failure(self, webhook_id: str, reason: str, disable: bool) -> None:
        with self.lock:
            state = self.hooks.get(webhook_id)
            if state is not None:
                state.failures += 1
                state.last_failure_reason = reason
                state.disabled |= disable
