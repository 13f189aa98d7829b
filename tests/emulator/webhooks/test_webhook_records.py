"""Every delivery attempt leaves a record, a failure count and a retry, whatever the URL or the
secret hold; a URL no delivery can use is refused at create and update with a 400 naming it (never
a 500); and no delivery drives an emulator's admin endpoints, this one's or a neighbour's."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from altostratus.emulator import Emulator
from altostratus.emulator.clock import Clock
from altostratus.emulator.webhooks import DeliveryTarget, WebhookDispatcher
from tests.support.webhook_receiver import FakeWebhooks, Receiver

from ..serving.test_server import call

RETRY = 300


def _settle(dispatcher: WebhookDispatcher, clock: Clock, seconds: float = 0.0) -> None:
    if seconds:
        clock.advance(seconds)
    assert dispatcher.wait_idle(timeout=10)


ODD_TARGETS = {
    "unreadable-url": ("http://[::1", "0" * 40),
    "port-out-of-range": ("http://127.0.0.1:99999/hook", "0" * 40),
    "lone-surrogate-in-url": ("http://127.0.0.1:9/\ud800", "0" * 40),
    "lone-surrogate-secret": ("http://127.0.0.1:9/hook", "s\udc80"),
    "admin-path": ("http://127.0.0.1:9/_emulator/accounts", "0" * 40),
    "bad-host": ("http://" + "a" * 70 + ".test/hook", "0" * 40),
}


@pytest.mark.parametrize("name", list(ODD_TARGETS))
def test_every_attempt_leaves_a_record_a_failure_and_a_retry(
    dispatcher: WebhookDispatcher, clock: Clock, hooks: FakeWebhooks, name: str
) -> None:
    url, secret = ODD_TARGETS[name]
    hooks.add(DeliveryTarget("odd", "account-a", url, secret, ("*",)))
    dispatcher.emit("account-a", "network.created", "net-1")
    _settle(dispatcher, clock)
    _settle(dispatcher, clock, RETRY)
    records = dispatcher.deliveries()
    assert [record["attempt"] for record in records] == [1, 2]
    assert all(record["error"] for record in records)
    assert hooks.hooks["odd"].failures == 2
    assert hooks.hooks["odd"].last_failure_reason


def test_a_path_of_any_text_is_delivered_encoded(
    dispatcher: WebhookDispatcher, clock: Clock, hooks: FakeWebhooks, receiver: Receiver
) -> None:
    url = receiver.url + "/hööks-ü?x=ä"
    hooks.add(DeliveryTarget("text", "account-a", url, "0" * 40, ("*",)))
    dispatcher.emit("account-a", "network.created", "net-1")
    _settle(dispatcher, clock)
    [got] = receiver.received
    assert got.path == "/hook/h%C3%B6%C3%B6ks-%C3%BC?x=%C3%A4"
    [record] = dispatcher.deliveries()
    assert (record["status_code"], record["error"]) == (200, None)


def _raw(emulator: Emulator, method: str, path: str, body: bytes, **headers: str) -> Any:
    parts = urlsplit(emulator.api_url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        connection.close()


REFUSED_URLS = [
    "http://[::1",
    "http://127.0.0.1:99999/hook",
    "http://127.0.0.1:8080/a hook",
    "ftp://127.0.0.1/hook",
    "http://127.0.0.1:8080/_emulator/accounts",
    "http://127.0.0.1:8080/%5Femulator/reset",
    "http://127.0.0.1:8080//./x/../_EMULATOR/clock",
    "http://localhost:8080/_emulator",
]


@pytest.mark.parametrize("url", REFUSED_URLS)
def test_a_url_no_delivery_can_use_is_refused_naming_it(fresh_emulator: Emulator, url: str) -> None:
    status, answer = call(fresh_emulator, "POST", "/v2/webhooks", {"url": url})
    assert status == 400, answer
    assert answer["code"] == "parameter_url_invalid"
    status, made = call(fresh_emulator, "POST", "/v2/webhooks", {"url": "http://127.0.0.1:9/h"})
    assert status == 200
    status, answer = call(fresh_emulator, "PUT", f"/v2/webhooks/{made['id']}", {"url": url})
    assert (status, answer["code"]) == (400, "parameter_url_invalid")


@pytest.mark.parametrize("field", ["secret", "url"])
def test_lone_surrogates_are_refused_naming_the_field(fresh_emulator: Emulator, field: str) -> None:
    body = {"url": "http://127.0.0.1:9/hook", "secret": "shh"}
    body[field] += "\ud800"
    data = json.dumps(body).encode()  # carries the surrogate as the escape \ud800
    status, answer = _raw(
        fresh_emulator,
        "POST",
        "/v2/webhooks",
        data,
        Authorization=f"Bearer {fresh_emulator.api_key}",
        **{"Content-Type": "application/json"},
    )
    assert status == 400 and answer["code"] == f"parameter_{field}_invalid"


def test_a_webhook_cannot_drive_a_neighbouring_emulators_admin_endpoints(
    fresh_emulator: Emulator,
) -> None:
    with Emulator() as neighbour:
        accounts = call(neighbour, "GET", "/_emulator/accounts")[1]
        target = f"{neighbour.api_url}/_emulator/accounts"
        status, answer = call(fresh_emulator, "POST", "/v2/webhooks", {"url": target})
        assert (status, answer["code"]) == (400, "parameter_url_invalid")

        # A webhook kept from before (its URL written in the state) fails and is recorded.
        status, made = call(fresh_emulator, "POST", "/v2/webhooks", {"url": "http://127.0.0.1:9/"})
        with fresh_emulator.state.lock:
            fresh_emulator.state.webhooks.records[made["id"]].url = target
        assert call(fresh_emulator, "POST", f"/v2/webhooks/{made['id']}/test")[0] == 200
        assert fresh_emulator.dispatcher.wait_idle(10)
        [record] = call(fresh_emulator, "GET", "/_emulator/deliveries")[1]
        assert "admin endpoints" in record["error"]
        assert call(neighbour, "GET", "/_emulator/accounts")[1] == accounts

        # And whatever path led there, a delivery is refused by the admin endpoints themselves.
        delivery = json.dumps({"name": "planted"}).encode()
        for marks in (
            {"X-Service-Event": "3b241101-e2bb-4255-8caf-4136c566a962"},
            {"User-Agent": "altostratus-emulator/9.9"},
        ):
            status, answer = _raw(
                neighbour,
                "POST",
                "/_emulator/accounts",
                delivery,
                **{"Content-Type": "application/json"},
                **marks,
            )
            assert (status, answer["code"]) == (403, "admin_webhook_delivery")
        assert call(neighbour, "GET", "/_emulator/accounts")[1] == accounts
