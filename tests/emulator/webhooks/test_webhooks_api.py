from __future__ import annotations

import re

from tests.support.service_api import Api, RecordingEvents

FIELDS = {
    "id",
    "created_at",
    "events",
    "url",
    "secret",
    "disabled",
    "failures",
    "last_failure_reason",
}


def test_create_answers_result_and_id(any_api: Api) -> None:
    created = any_api.ok("POST", "/webhooks", {"url": "https://example.com/hook"})
    assert set(created) == {"result", "id"} and created["result"] == "success"
    webhooks = any_api.ok("GET", "/webhooks")
    assert [set(w) for w in webhooks] == [FIELDS]
    webhook = webhooks[0]
    assert webhook["events"] == ["*"] and webhook["url"] == "https://example.com/hook"
    assert re.fullmatch(r"[0-9a-f]{40}", webhook["secret"])
    assert (webhook["disabled"], webhook["failures"], webhook["last_failure_reason"]) == (
        False,
        0,
        "",
    )
    assert webhook["created_at"].endswith("+00:00")


def test_create_takes_events_and_secret(any_api: Api) -> None:
    body = {
        "url": "http://127.0.0.1:9/h",
        "events": ["network.created", "ip.deleted"],
        "secret": "s3cret",
    }
    any_api.ok("POST", "/webhooks", body)
    webhook = any_api.ok("GET", "/webhooks")[0]
    assert webhook["events"] == ["network.created", "ip.deleted"] and webhook["secret"] == "s3cret"


def test_create_validates(any_api: Api) -> None:
    any_api.error(400, "parameter_url_missing", "POST", "/webhooks", {})
    any_api.error(400, "parameter_url_invalid", "POST", "/webhooks", {"url": "ftp://example.com"})
    any_api.error(400, "parameter_url_invalid", "POST", "/webhooks", {"url": "example.com"})
    body = {"url": "https://example.com", "events": ["network.exploded"]}
    any_api.error(400, "parameter_events_invalid", "POST", "/webhooks", body)
    body = {"url": "https://example.com", "events": []}
    any_api.error(400, "parameter_events_invalid", "POST", "/webhooks", body)
    assert any_api.ok("GET", "/webhooks") == []


def test_form_events_must_be_json_text(wsgi_api: Api) -> None:
    body = {"url": "https://example.com", "events": "network.created"}
    wsgi_api.error(400, "parameter_events_invalid", "POST", "/webhooks", body, form=True)


def test_update_answers_the_webhook_and_enables_it(any_api: Api) -> None:
    created = any_api.ok("POST", "/webhooks", {"url": "https://example.com/a"})
    any_api.app.state.record_delivery_failure(created["id"], "HTTP 500", True)
    failed = any_api.ok("GET", "/webhooks")[0]
    assert (failed["disabled"], failed["failures"], failed["last_failure_reason"]) == (
        True,
        1,
        "HTTP 500",
    )
    body = {"url": "https://example.com/b", "events": ["ip.created"], "secret": "new"}
    updated = any_api.ok("PUT", f"/webhooks/{created['id']}", body)
    assert set(updated) == FIELDS
    assert (updated["url"], updated["events"], updated["secret"]) == (
        "https://example.com/b",
        ["ip.created"],
        "new",
    )
    assert updated["disabled"] is False
    any_api.error(400, "parameter_url_invalid", "PUT", f"/webhooks/{created['id']}", {"url": "x"})


def test_delete_and_unknown_ids(any_api: Api, other: Api) -> None:
    created = any_api.ok("POST", "/webhooks", {"url": "https://example.com"})
    other.error(404, "database_webhook_not_found", "DELETE", f"/webhooks/{created['id']}")
    other.error(404, "database_webhook_not_found", "POST", f"/webhooks/{created['id']}/test")
    assert other.ok("GET", "/webhooks") == []
    assert any_api.ok("DELETE", f"/webhooks/{created['id']}") == {"result": "success"}
    any_api.error(404, "database_webhook_not_found", "PUT", f"/webhooks/{created['id']}", {})
    assert any_api.ok("GET", "/webhooks") == []


def test_test_hands_the_target_to_the_worker(wsgi_api: Api, events: RecordingEvents) -> None:
    body = {"url": "https://example.com", "events": ["ip.created"], "secret": "k"}
    created = wsgi_api.ok("POST", "/webhooks", body)
    assert wsgi_api.ok("POST", f"/webhooks/{created['id']}/test") == {"result": "success"}
    [target] = events.tests
    assert (target.webhook_id, target.url, target.secret, target.events) == (
        created["id"],
        "https://example.com",
        "k",
        ("ip.created",),
    )


def test_webhook_calls_emit_no_events(wsgi_api: Api, events: RecordingEvents) -> None:
    created = wsgi_api.ok("POST", "/webhooks", {"url": "https://example.com"})
    wsgi_api.ok("PUT", f"/webhooks/{created['id']}", {"secret": "x"})
    wsgi_api.ok("DELETE", f"/webhooks/{created['id']}")
    assert events.emitted == []


def test_delivery_directory(wsgi_api: Api) -> None:
    state = wsgi_api.app.state
    everything = wsgi_api.ok("POST", "/webhooks", {"url": "https://example.com/all"})
    some = wsgi_api.ok(
        "POST", "/webhooks", {"url": "https://example.com/ip", "events": ["ip.created"]}
    )
    account = state.default_account.id
    assert [t.webhook_id for t in state.delivery_targets(account, "ip.created")] == [
        everything["id"],
        some["id"],
    ]
    assert [t.webhook_id for t in state.delivery_targets(account, "network.created")] == [
        everything["id"]
    ]
    assert state.delivery_targets("someone-else", "ip.created") == []
    state.record_delivery_failure(some["id"], "timeout", False)
    assert state.delivery_target(some["id"]) is not None
    state.record_delivery_failure(some["id"], "timeout", True)
    assert state.delivery_target(some["id"]) is None
    assert [t.webhook_id for t in state.delivery_targets(account, "ip.created")] == [
        everything["id"]
    ]
    assert state.delivery_target("nope") is None
