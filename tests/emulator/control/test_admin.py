"""The admin endpoints: accounts, clock, faults, the request log, reset, and rate limiting."""

from __future__ import annotations

import json

import pytest

from altostratus.emulator.app import EmulatorApp
from altostratus.emulator.control.faults import MANGLES

from ..service_api import KEY, Api, RecordingBuckets, RecordingEvents


def test_health(api: Api) -> None:
    assert api.admin("GET", "/health") == {"status": "ok"}


def test_admin_answers_loopback_only(api: Api) -> None:
    for address in ("10.1.2.3", "192.168.0.1"):
        response = api.client.get("/_emulator/health", environ_base={"REMOTE_ADDR": address})
        assert response.status_code == 403
    response = api.client.get("/_emulator/health", environ_base={"REMOTE_ADDR": "::1"})
    assert response.status_code == 200


def test_unknown_admin_paths_and_methods(api: Api) -> None:
    api.error(404, "not_found", "GET", "/_emulator/nothing", form=False)
    api.error(405, "method_not_allowed", "DELETE", "/_emulator/health", form=False)


def test_accounts(api: Api) -> None:
    [default] = api.admin("GET", "/accounts")
    assert default["name"] == "default" and default["api_key"] == KEY
    created = api.admin("POST", "/accounts", {"name": "team"})
    assert set(created) == {"id", "name", "api_key"} and created["name"] == "team"
    assert created["api_key"] != KEY
    assert api.admin("GET", "/accounts") == [default, created]
    team = api.with_key(created["api_key"])
    assert [n["label"] for n in team.ok("GET", "/networks")] == ["Default"]
    unnamed = api.admin("POST", "/accounts")
    assert unnamed["name"]


def test_clock_can_be_read_and_advanced(api: Api) -> None:
    before = api.admin("GET", "/clock")
    assert set(before) == {"now", "time_scale"} and before["time_scale"] == 1.0
    after = api.admin("POST", "/clock", {"advance_seconds": 3600})
    assert after["now"] > before["now"]
    assert after["now"][:13] != before["now"][:13]
    api.error(
        400,
        "parameter_advance_seconds_invalid",
        "POST",
        "/_emulator/clock",
        {"advance_seconds": -1},
        form=False,
    )
    api.error(
        400,
        "parameter_advance_seconds_invalid",
        "POST",
        "/_emulator/clock",
        {"advance_seconds": "1"},
        form=False,
    )


def test_clock_time_scale_can_be_set(api: Api) -> None:
    assert api.admin("POST", "/clock", {"time_scale": 60})["time_scale"] == 60
    api.error(
        400,
        "parameter_time_scale_invalid",
        "POST",
        "/_emulator/clock",
        {"time_scale": 0},
        form=False,
    )


def test_injected_status_faults(api: Api) -> None:
    fault = api.admin(
        "POST",
        "/faults",
        {"method": "post", "path_prefix": "/v2/vpc/networks", "count": 2, "status": 503},
    )
    assert set(fault) == {"id"}
    api.ok("GET", "/networks")
    for _ in range(2):
        reply = api.call("POST", "/networks", {"label": "x"})
        assert (reply.status, reply.body["code"]) == (503, "internal_error")
    api.ok("POST", "/networks", {"label": "x"})
    assert len(api.ok("GET", "/networks")) == 2


def test_after_apply_makes_the_change_then_fails(api: Api) -> None:
    api.admin(
        "POST", "/faults", {"path_prefix": "/v2/vpc/networks", "status": 500, "after_apply": True}
    )
    reply = api.call("POST", "/networks", {"label": "applied"})
    assert reply.status == 500
    assert [n["label"] for n in api.ok("GET", "/networks")] == ["Default", "applied"]


def test_a_429_fault_may_carry_retry_after(api: Api) -> None:
    api.admin("POST", "/faults", {"status": 429, "retry_after_seconds": 2})
    reply = api.call("GET", "/networks")
    assert (reply.status, reply.body["code"], reply.headers["Retry-After"]) == (
        429,
        "rate_limited",
        "2",
    )


@pytest.mark.parametrize("how", MANGLES)
def test_a_mangled_answer_follows_the_change_it_answers(api: Api, how: str) -> None:
    api.admin(
        "POST", "/faults", {"method": "POST", "path_prefix": "/v2/vpc/networks", "mangle": how}
    )
    response = api.client.post(
        "/v2/vpc/networks",
        json={"label": f"mangled-{how}", "region": "LON1"},
        headers={"Authorization": f"bearer {KEY}"},
        environ_base={"REMOTE_ADDR": "127.0.0.1"},
    )
    [created] = [n for n in api.ok("GET", "/networks") if n["label"] == f"mangled-{how}"]
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
        assert json.loads(text)["id"] not in {n["id"] for n in api.ok("GET", "/networks")}


def test_drop_connection_without_a_socket_raises(api: Api) -> None:
    api.admin("POST", "/faults", {"drop_connection": True})
    with pytest.raises(ConnectionAbortedError):
        api.call("GET", "/networks")
    assert api.admin("GET", "/requests")[-1]["status"] is None


def test_faults_are_validated_and_cleared(api: Api) -> None:
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
        reply = api.call("POST", "/_emulator/faults", body, form=False)
        assert reply.status == 400, body
    api.admin("POST", "/faults", {"status": 500, "count": 5})
    assert api.admin("DELETE", "/faults") == {"result": "success"}
    api.ok("GET", "/networks")


def test_the_request_log_holds_service_requests_only(api: Api) -> None:
    api.ok("GET", "/networks", query={"region": "FRA1"})
    api.call("GET", "/nothing")
    api.with_key("bad").call("GET", "/networks")
    api.admin("GET", "/health")
    log = api.admin("GET", "/requests")
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
    assert api.admin("DELETE", "/requests") == {"result": "success"}
    assert api.admin("GET", "/requests") == []


def test_deliveries_come_from_the_worker(api: Api, events: RecordingEvents) -> None:
    api.ok("POST", "/networks", {"label": "x"})
    assert api.admin("GET", "/deliveries") == [{"event": "network.created"}]


def test_reset_forgets_everything_but_the_default_account(
    api: Api, buckets: RecordingBuckets, events: RecordingEvents
) -> None:
    default = api.admin("GET", "/accounts")[0]
    other = api.admin("POST", "/accounts", {"name": "other"})
    old_default_network = api.ok("GET", "/networks")[0]["id"]
    api.ok("POST", "/networks", {"label": "x"})
    api.ok("POST", "/objectstores", {"name": "s"})
    api.admin("POST", "/faults", {"status": 500, "path_prefix": "/v2/ips"})
    assert api.admin("POST", "/reset") == {"result": "success"}
    assert api.admin("GET", "/accounts") == [default]
    assert api.admin("GET", "/requests") == []
    assert buckets.resets == 1 and events.emitted == []
    networks = api.ok("GET", "/networks")
    assert [n["label"] for n in networks] == ["Default"] and networks[0][
        "id"
    ] != old_default_network
    api.ok("GET", "/ips")
    api.with_key(other["api_key"]).error(401, "database_account_not_found", "GET", "/networks")
    assert api.ok("GET", "/objectstore/credentials")["items"] == []


def test_reset_restores_default_quota_limits(api: Api) -> None:
    account = api.app.state.default_account.id
    api.admin("PUT", f"/accounts/{account}/quota", {"network_count_limit": 0})
    api.admin("POST", "/reset")
    assert api.ok("GET", "/v2/quota")["network_count_limit"] == 10


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
