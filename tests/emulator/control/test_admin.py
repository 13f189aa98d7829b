"""The admin endpoints: accounts, clock, faults, the request log, reset, and rate limiting."""

from __future__ import annotations

import json

import pytest

from altostratus.emulator.app import EmulatorApp
from altostratus.emulator.control.faults import MANGLES
from tests.support.service_api import KEY, Api, RecordingBuckets, RecordingEvents


def test_health(wsgi_api: Api) -> None:
    assert wsgi_api.admin("GET", "/health") == {"status": "ok"}


def test_admin_answers_loopback_only(wsgi_api: Api) -> None:
    for address in ("10.1.2.3", "192.168.0.1"):
        response = wsgi_api.client.get("/_emulator/health", environ_base={"REMOTE_ADDR": address})
        assert response.status_code == 403
    response = wsgi_api.client.get("/_emulator/health", environ_base={"REMOTE_ADDR": "::1"})
    assert response.status_code == 200


def test_unknown_admin_paths_and_methods(wsgi_api: Api) -> None:
    wsgi_api.error(404, "not_found", "GET", "/_emulator/nothing", form=False)
    wsgi_api.error(405, "method_not_allowed", "DELETE", "/_emulator/health", form=False)


def test_accounts(wsgi_api: Api) -> None:
    [default] = wsgi_api.admin("GET", "/accounts")
    assert default["name"] == "default" and default["api_key"] == KEY
    created = wsgi_api.admin("POST", "/accounts", {"name": "team"})
    assert set(created) == {"id", "name", "api_key"} and created["name"] == "team"
    assert created["api_key"] != KEY
    assert wsgi_api.admin("GET", "/accounts") == [default, created]
    team = wsgi_api.with_key(created["api_key"])
    assert [n["label"] for n in team.ok("GET", "/networks")] == ["Default"]
    unnamed = wsgi_api.admin("POST", "/accounts")
    assert unnamed["name"]


def test_clock_can_be_read_and_advanced(wsgi_api: Api) -> None:
    before = wsgi_api.admin("GET", "/clock")
    assert set(before) == {"now", "time_scale"} and before["time_scale"] == 1.0
    after = wsgi_api.admin("POST", "/clock", {"advance_seconds": 3600})
    assert after["now"] > before["now"]
    assert after["now"][:13] != before["now"][:13]
    wsgi_api.error(
        400,
        "parameter_advance_seconds_invalid",
        "POST",
        "/_emulator/clock",
        {"advance_seconds": -1},
        form=False,
    )
    wsgi_api.error(
        400,
        "parameter_advance_seconds_invalid",
        "POST",
        "/_emulator/clock",
        {"advance_seconds": "1"},
        form=False,
    )


def test_clock_time_scale_can_be_set(wsgi_api: Api) -> None:
    assert wsgi_api.admin("POST", "/clock", {"time_scale": 60})["time_scale"] == 60
    wsgi_api.error(
        400,
        "parameter_time_scale_invalid",
        "POST",
        "/_emulator/clock",
        {"time_scale": 0},
        form=False,
    )


def test_injected_status_faults(wsgi_api: Api) -> None:
    fault = wsgi_api.admin(
        "POST",
        "/faults",
        {"method": "post", "path_prefix": "/v2/vpc/networks", "count": 2, "status": 503},
    )
    assert set(fault) == {"id"}
    wsgi_api.ok("GET", "/networks")
    for _ in range(2):
        reply = wsgi_api.call("POST", "/networks", {"label": "x"})
        assert (reply.status, reply.body["code"]) == (503, "internal_error")
    wsgi_api.ok("POST", "/networks", {"label": "x"})
    assert len(wsgi_api.ok("GET", "/networks")) == 2


def test_after_apply_makes_the_change_then_fails(wsgi_api: Api) -> None:
    wsgi_api.admin(
        "POST", "/faults", {"path_prefix": "/v2/vpc/networks", "status": 500, "after_apply": True}
    )
    reply = wsgi_api.call("POST", "/networks", {"label": "applied"})
    assert reply.status == 500
    assert [n["label"] for n in wsgi_api.ok("GET", "/networks")] == ["Default", "applied"]


def test_a_429_fault_may_carry_retry_after(wsgi_api: Api) -> None:
    wsgi_api.admin("POST", "/faults", {"status": 429, "retry_after_seconds": 2})
    reply = wsgi_api.call("GET", "/networks")
    assert (reply.status, reply.body["code"], reply.headers["Retry-After"]) == (
        429,
        "rate_limited",
        "2",
    )


@pytest.mark.parametrize("how", MANGLES)
def test_a_mangled_answer_follows_the_change_it_answers(wsgi_api: Api, how: str) -> None:
    wsgi_api.admin(
        "POST", "/faults", {"method": "POST", "path_prefix": "/v2/vpc/networks", "mangle": how}
    )
    response = wsgi_api.client.post(
        "/v2/vpc/networks",
        json={"label": f"mangled-{how}", "region": "LON1"},
        headers={"Authorization": f"bearer {KEY}"},
        environ_base={"REMOTE_ADDR": "127.0.0.1"},
    )
    [created] = [n for n in wsgi_api.ok("GET", "/networks") if n["label"] == f"mangled-{how}"]
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    if how == "html":
        assert response.mimetype == "text/html" and text.startswith("<html>")
        return
    assert response.mimetype == "application/json"
    if how == "empty":
        assert text == ""
    elif how == "invalid_json":
        assert text.startswith("{")
        with pytest.raises(ValueError):
            json.loads(text)
    elif how == "wrong_shape":
        assert json.loads(text)["data"]["id"] == created["id"]
    else:
        assert json.loads(text)["id"] not in {n["id"] for n in wsgi_api.ok("GET", "/networks")}


def test_drop_connection_without_a_socket_raises(wsgi_api: Api) -> None:
    wsgi_api.admin("POST", "/faults", {"drop_connection": True})
    with pytest.raises(ConnectionAbortedError):
        wsgi_api.call("GET", "/networks")
    assert wsgi_api.admin("GET", "/requests")[-1]["status"] is None


def test_faults_are_validated_and_cleared(wsgi_api: Api) -> None:
    for body in (
        {"status": 200},
        {"count": 0},
        {"delay_seconds": -1},
        {"delay_seconds": 1e9},
        {"delay_seconds": 61},
        {"retry_after_seconds": -1},
        {"retry_after_seconds": 10**12},
        {"colour": "red"},
        {"status": "500"},
        {"drop_connection": 1},
        {"mangle": "garbled"},
        {"mangle": "html", "status": 500},
        {"mangle": "empty", "drop_connection": True},
    ):
        reply = wsgi_api.call("POST", "/_emulator/faults", body, form=False)
        assert reply.status == 400, body
    wsgi_api.admin("POST", "/faults", {"status": 500, "count": 5})
    assert wsgi_api.admin("DELETE", "/faults") == {"result": "success"}
    wsgi_api.ok("GET", "/networks")


def test_the_request_log_holds_service_requests_only(wsgi_api: Api) -> None:
    wsgi_api.ok("GET", "/networks", query={"region": "FRA1"})
    wsgi_api.call("GET", "/nothing")
    wsgi_api.with_key("bad").call("GET", "/networks")
    wsgi_api.admin("GET", "/health")
    log = wsgi_api.admin("GET", "/requests")
    nothing = {"body": [], "query": []}
    assert log == [
        {
            "method": "GET",
            "path": "/v2/vpc/networks",
            "query": {"region": "FRA1"},
            "status": 200,
            "ignored": nothing,
        },
        {"method": "GET", "path": "/v2/nothing", "query": {}, "status": 404, "ignored": nothing},
        {
            "method": "GET",
            "path": "/v2/vpc/networks",
            "query": {},
            "status": 401,
            "ignored": nothing,
        },
    ]
    assert wsgi_api.admin("DELETE", "/requests") == {"result": "success"}
    assert wsgi_api.admin("GET", "/requests") == []


def test_deliveries_come_from_the_worker(wsgi_api: Api, events: RecordingEvents) -> None:
    wsgi_api.ok("POST", "/networks", {"label": "x"})
    assert wsgi_api.admin("GET", "/deliveries") == [{"event": "network.created"}]


def test_reset_forgets_everything_but_the_default_account(
    wsgi_api: Api, buckets: RecordingBuckets, events: RecordingEvents
) -> None:
    default = wsgi_api.admin("GET", "/accounts")[0]
    other = wsgi_api.admin("POST", "/accounts", {"name": "other"})
    old_default_network = wsgi_api.ok("GET", "/networks")[0]["id"]
    wsgi_api.ok("POST", "/networks", {"label": "x"})
    wsgi_api.ok("POST", "/objectstores", {"name": "s"})
    wsgi_api.admin("POST", "/faults", {"status": 500, "path_prefix": "/v2/ips"})
    assert wsgi_api.admin("POST", "/reset") == {"result": "success"}
    assert wsgi_api.admin("GET", "/accounts") == [default]
    assert wsgi_api.admin("GET", "/requests") == []
    assert buckets.resets == 1 and events.emitted == []
    networks = wsgi_api.ok("GET", "/networks")
    assert [n["label"] for n in networks] == ["Default"] and networks[0][
        "id"
    ] != old_default_network
    wsgi_api.ok("GET", "/ips")
    wsgi_api.with_key(other["api_key"]).error(401, "database_account_not_found", "GET", "/networks")
    assert wsgi_api.ok("GET", "/objectstore/credentials")["items"] == []


def test_reset_restores_default_quota_limits(wsgi_api: Api) -> None:
    account = wsgi_api.app.state.default_account.id
    wsgi_api.admin("PUT", f"/accounts/{account}/quota", {"network_count_limit": 0})
    wsgi_api.admin("POST", "/reset")
    assert wsgi_api.ok("GET", "/v2/quota")["network_count_limit"] == 10


def test_rate_limit_answers_429_with_retry_after(service: EmulatorApp) -> None:
    limited = EmulatorApp(service.state, service.events, rate_limit=2)
    api = Api(limited)
    other = api.admin("POST", "/accounts", {"name": "other"})
    api.ok("GET", "/networks")
    api.ok("GET", "/networks")
    reply = api.call("GET", "/networks")
    assert (reply.status, reply.body["code"]) == (429, "rate_limited")
    assert int(reply.headers["Retry-After"]) >= 1
    api.with_key(other["api_key"]).ok("GET", "/networks")
    api.advance(1)
    api.ok("GET", "/networks")
