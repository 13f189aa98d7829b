"""The delivery worker against a local receiver, with time moved by the emulated clock."""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from datetime import datetime

import pytest

from altostratus.emulator.clock import Clock
from altostratus.emulator.webhooks import DeliveryTarget, WebhookDispatcher
from altostratus.emulator.webhooks.events import EVENT_NAMES
from altostratus.emulator.webhooks.sending import is_loopback
from tests.support.webhook_receiver import FakeWebhooks, Receiver

SECRET = "3f1c" * 10
RETRY_DELAYS = [300, 1800, 3600, 7200, 21600]


@pytest.fixture
def hook(hooks: FakeWebhooks, receiver: Receiver) -> DeliveryTarget:
    return hooks.add(DeliveryTarget("hook-1", "account-a", receiver.url, SECRET, ("*",)))


def settle(dispatcher: WebhookDispatcher, clock: Clock, seconds: float = 0.0) -> None:
    if seconds:
        clock.advance(seconds)
    assert dispatcher.wait_idle(timeout=10)


def test_a_delivery_is_signed_over_its_exact_bytes(
    dispatcher: WebhookDispatcher, clock: Clock, hook: DeliveryTarget, receiver: Receiver
) -> None:
    dispatcher.emit("account-a", "network.created", "net-1")
    settle(dispatcher, clock)

    [got] = receiver.received
    expected = hmac.new(SECRET.encode(), got.body, hashlib.sha1).hexdigest()
    assert hmac.compare_digest(got.headers["X-Service-Signature"], expected)
    assert json.loads(got.body) == {"event": "network.created", "resourceID": "net-1"}
    assert got.headers["Content-Type"] == "application/json"
    assert got.headers["User-Agent"].startswith("altostratus-emulator/")
    assert got.path == "/hook"
    [record] = dispatcher.deliveries()
    assert record["event_id"] == str(uuid.UUID(got.headers["X-Service-Event"]))
    assert record | {"event_id": None, "delivered_at": None} == {
        "webhook_id": "hook-1",
        "event": "network.created",
        "resource_id": "net-1",
        "event_id": None,
        "attempt": 1,
        "status_code": 200,
        "error": None,
        "delivered_at": None,
    }
    assert datetime.fromisoformat(str(record["delivered_at"])).utcoffset() is not None


def test_only_the_accounts_subscribed_webhooks_receive_an_event(
    dispatcher: WebhookDispatcher, clock: Clock, hooks: FakeWebhooks, receiver: Receiver
) -> None:
    hooks.add(DeliveryTarget("mine", "account-a", receiver.url + "/mine", SECRET, ("ip.created",)))
    hooks.add(DeliveryTarget("other", "account-b", receiver.url + "/other", SECRET, ("*",)))
    dispatcher.emit("account-a", "ip.created", "ip-1")
    dispatcher.emit("account-a", "ip.deleted", "ip-1")
    settle(dispatcher, clock)
    assert [got.path for got in receiver.received] == ["/hook/mine"]


def test_failures_retry_on_schedule_then_disable_the_webhook(
    dispatcher: WebhookDispatcher,
    clock: Clock,
    hooks: FakeWebhooks,
    hook: DeliveryTarget,
    receiver: Receiver,
) -> None:
    receiver.default_status = 500
    dispatcher.emit("account-a", "firewall.updated", "fw-1")
    settle(dispatcher, clock)
    assert len(receiver.received) == 1

    for number, delay in enumerate(RETRY_DELAYS, start=2):
        settle(dispatcher, clock, delay - 5)
        assert len(receiver.received) == number - 1, "a retry came early"
        settle(dispatcher, clock, 5)
        assert len(receiver.received) == number
        assert hooks.hooks["hook-1"].failures == number
        assert hooks.hooks["hook-1"].disabled is (number == 6)

    assert hooks.hooks["hook-1"].last_failure_reason == "answered HTTP 500"
    assert len({got.headers["X-Service-Event"] for got in receiver.received}) == 1
    assert len({got.body for got in receiver.received}) == 1
    assert [r["attempt"] for r in dispatcher.deliveries()] == [1, 2, 3, 4, 5, 6]

    settle(dispatcher, clock, 7 * 24 * 3600)
    dispatcher.emit("account-a", "firewall.updated", "fw-1")
    settle(dispatcher, clock)
    assert len(receiver.received) == 6


def test_a_retry_that_succeeds_ends_the_schedule(
    dispatcher: WebhookDispatcher,
    clock: Clock,
    hooks: FakeWebhooks,
    hook: DeliveryTarget,
    receiver: Receiver,
) -> None:
    receiver.statuses = [503]
    dispatcher.emit("account-a", "ip.updated", "ip-1")
    settle(dispatcher, clock)
    settle(dispatcher, clock, 300)
    settle(dispatcher, clock, 24 * 3600)

    assert [r["status_code"] for r in dispatcher.deliveries()] == [503, 200]
    assert hooks.hooks["hook-1"].failures == 1
    assert not hooks.hooks["hook-1"].disabled


def test_a_receiver_slower_than_the_timeout_fails(
    hooks: FakeWebhooks, hook: DeliveryTarget, receiver: Receiver
) -> None:
    clock = Clock(time_scale=50)  # 5 emulated seconds are 0.1 s
    worker = WebhookDispatcher(hooks, clock)
    worker.start()
    try:
        receiver.delay = 0.3
        worker.emit("account-a", "network.deleted", "net-1")
        assert worker.wait_idle(timeout=10)
    finally:
        worker.stop()
    assert hooks.hooks["hook-1"].failures == 1
    assert hooks.hooks["hook-1"].last_failure_reason == "timed out after 5 s"
    assert worker.deliveries()[0]["error"] == "timed out after 5 s"


def test_an_unreachable_receiver_fails(
    dispatcher: WebhookDispatcher, clock: Clock, hooks: FakeWebhooks, receiver: Receiver
) -> None:
    closed = Receiver()
    closed.server.server_close()
    hooks.add(DeliveryTarget("gone", "account-a", closed.url, SECRET, ("*",)))
    dispatcher.emit("account-a", "network.created", "net-1")
    settle(dispatcher, clock)
    assert hooks.hooks["gone"].last_failure_reason == "connection refused"


def test_a_deleted_webhook_gets_no_retry(
    dispatcher: WebhookDispatcher,
    clock: Clock,
    hooks: FakeWebhooks,
    hook: DeliveryTarget,
    receiver: Receiver,
) -> None:
    receiver.default_status = 500
    dispatcher.emit("account-a", "network.created", "net-1")
    settle(dispatcher, clock)
    hooks.delete("hook-1")
    settle(dispatcher, clock, 300)
    assert len(receiver.received) == 1


def test_a_retry_uses_the_webhooks_current_url_and_secret(
    dispatcher: WebhookDispatcher,
    clock: Clock,
    hooks: FakeWebhooks,
    hook: DeliveryTarget,
    receiver: Receiver,
) -> None:
    receiver.statuses = [500]
    dispatcher.emit("account-a", "network.created", "net-1")
    settle(dispatcher, clock)
    hooks.change("hook-1", url=receiver.url + "/moved", secret="new-secret")
    settle(dispatcher, clock, 300)

    first, second = receiver.received
    assert second.path == "/hook/moved"
    expected = hmac.new(b"new-secret", second.body, hashlib.sha1).hexdigest()
    assert second.headers["X-Service-Signature"] == expected
    assert second.headers["X-Service-Event"] == first.headers["X-Service-Event"]


@pytest.mark.parametrize(
    ("events", "expected"),
    [(("*",), None), (("network.created", "ip.deleted"), "network.created")],
    ids=["star", "first-event"],
)
def test_a_test_delivery_sends_the_first_event_with_a_random_resource(
    dispatcher: WebhookDispatcher,
    clock: Clock,
    hooks: FakeWebhooks,
    receiver: Receiver,
    events: tuple[str, ...],
    expected: str | None,
) -> None:
    target = hooks.add(DeliveryTarget("hook-t", "account-a", receiver.url, SECRET, events))
    dispatcher.send_test(target)
    settle(dispatcher, clock)

    [got] = receiver.received
    payload = json.loads(got.body)
    assert payload["event"] == expected if expected else payload["event"] in EVENT_NAMES
    uuid.UUID(payload["resourceID"])


def test_reset_drops_pending_retries_and_records(
    dispatcher: WebhookDispatcher, clock: Clock, hook: DeliveryTarget, receiver: Receiver
) -> None:
    receiver.default_status = 500
    dispatcher.emit("account-a", "network.created", "net-1")
    settle(dispatcher, clock)
    dispatcher.reset()
    settle(dispatcher, clock, 300)
    assert len(receiver.received) == 1
    assert dispatcher.deliveries() == []


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("10.0.0.1", False),
        ("192.168.1.1", False),
        ("203.0.113.5", False),
        ("hooks.example.com", False),
        ("localhost.example.com", False),
        ("", False),
    ],
)
def test_loopback_is_decided_without_a_resolver(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_remote_receiver_is_refused_without_any_connection(
    dispatcher: WebhookDispatcher,
    clock: Clock,
    hooks: FakeWebhooks,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("a connection was attempted")

    monkeypatch.setattr("socket.create_connection", no_network)
    monkeypatch.setattr("socket.getaddrinfo", no_network)
    hooks.add(DeliveryTarget("far", "account-a", "https://hooks.example.com/x", SECRET, ("*",)))
    dispatcher.emit("account-a", "network.created", "net-1")
    settle(dispatcher, clock)
    reason = hooks.hooks["far"].last_failure_reason
    assert reason.startswith("hooks.example.com is not a loopback address")
    assert "--remote-deliveries" in reason
    (record,) = dispatcher.deliveries()
    assert record["status_code"] is None and record["error"] == reason


def test_remote_deliveries_when_allowed_do_connect(
    hooks: FakeWebhooks, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempted: list[tuple[str, int]] = []

    def record_attempt(address: tuple[str, int], *args: object, **kwargs: object) -> None:
        attempted.append(address)
        raise ConnectionRefusedError

    monkeypatch.setattr("socket.create_connection", record_attempt)
    worker = WebhookDispatcher(hooks, clock, remote_deliveries=True)
    worker.start()
    try:
        hooks.add(DeliveryTarget("far", "account-a", "http://192.0.2.7:8080/x", SECRET, ("*",)))
        worker.emit("account-a", "network.created", "net-1")
        settle(worker, clock)
    finally:
        worker.stop()
    assert attempted == [("192.0.2.7", 8080)]
    assert hooks.hooks["far"].last_failure_reason == "connection refused"
