"""The admin endpoints refuse other sites' pages, validate the clock, answer JSON, and reset the
clock too."""

from __future__ import annotations

import http.client
import json
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlsplit

import pytest

from altostratus.emulator import Emulator

from ..serving.test_server import call


def send(
    emulator: Emulator,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    parts = urlsplit(emulator.api_url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        assert answer.getheader("Content-Type") == "application/json"
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def _labels(emulator: Emulator) -> list[str]:
    return [n["label"] for n in call(emulator, "GET", "/v2/vpc/networks")[1]]


@pytest.fixture
def with_a_network(fresh_emulator: Emulator) -> Emulator:
    call(fresh_emulator, "POST", "/v2/vpc/networks", {"label": "kept"})
    return fresh_emulator


JSON = {"Content-Type": "application/json"}
ZEROS = b"0" * 5000


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({**JSON, "Origin": "http://evil.example"}, 403),
        ({**JSON, "Origin": "null"}, 403),
        ({**JSON, "Origin": "http://127.0.0.1.evil.example"}, 403),
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({}, 415),
    ],
)
def test_a_cross_site_reset_leaves_the_state_untouched(
    with_a_network: Emulator, headers: dict[str, str], status: int
) -> None:
    answer = send(with_a_network, "POST", "/_emulator/reset", b"{}", headers)
    assert answer[0] == status and answer[1]["result"] == "failed", answer
    assert _labels(with_a_network) == ["Default", "kept"]


def test_a_rebound_host_gets_no_keys(with_a_network: Emulator) -> None:
    port = urlsplit(with_a_network.api_url).port
    status, body = send(
        with_a_network, "GET", "/_emulator/accounts", headers={"Host": f"evil.example:{port}"}
    )
    assert (status, body["code"]) == (403, "admin_cross_site")
    assert with_a_network.api_key not in json.dumps(body)
    status, body = send(
        with_a_network, "POST", "/_emulator/reset", b"{}", {**JSON, "Host": "127.0.0.1:1"}
    )
    assert status == 403 and _labels(with_a_network) == ["Default", "kept"]


def test_the_emulator_s_own_origin_and_names_are_served(with_a_network: Emulator) -> None:
    port = urlsplit(with_a_network.api_url).port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        headers = {**JSON, "Host": host, "Origin": f"http://{host}"}
        assert send(with_a_network, "GET", "/_emulator/accounts", headers=headers)[0] == 200
    assert send(with_a_network, "POST", "/_emulator/reset", b"", JSON)[0] == 200
    assert _labels(with_a_network) == ["Default"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"advance_seconds": 1e12}',
        b'{"advance_seconds": NaN}',
        b'{"advance_seconds": Infinity}',
        b'{"advance_seconds": -1}',
        b'{"advance_seconds": "60"}',
        b'{"advance_seconds": true}',
        b'{"time_scale": 0}',
        b'{"time_scale": 1e9}',
        b'{"time_scale": -Infinity}',
        b'{"advance_seconds": 60, "time_scale": NaN}',
        b'{"speed": 2}',
    ],
)
def test_bad_clock_values_are_400_and_change_nothing(fresh_emulator: Emulator, body: bytes) -> None:
    before = call(fresh_emulator, "GET", "/_emulator/clock")[1]
    status, answer = send(fresh_emulator, "POST", "/_emulator/clock", body, JSON)
    assert status == 400 and answer["result"] == "failed", answer
    after = call(fresh_emulator, "GET", "/_emulator/clock")[1]
    assert after["time_scale"] == before["time_scale"]
    assert after["now"][:15] == before["now"][:15]
    network_id = call(fresh_emulator, "GET", "/v2/vpc/networks")[1][0]["id"]
    body_lb = {"name": "lb", "network_id": network_id, "backends": []}
    assert call(fresh_emulator, "POST", "/v2/vpc/loadbalancers", body_lb)[0] == 200
    assert call(fresh_emulator, "POST", "/v2/webhooks", {"url": "http://127.0.0.1:9/"})[0] == 200


def test_reset_restores_the_clock_and_time_scale(fresh_emulator: Emulator) -> None:
    started = call(fresh_emulator, "GET", "/_emulator/clock")[1]["time_scale"]
    moved = {"advance_seconds": 10 * 24 * 3600, "time_scale": 50}
    assert call(fresh_emulator, "POST", "/_emulator/clock", moved)[1]["time_scale"] == 50
    assert send(fresh_emulator, "POST", "/_emulator/reset", b"{}", JSON)[0] == 200
    clock = call(fresh_emulator, "GET", "/_emulator/clock")[1]
    assert clock["time_scale"] == started
    now = datetime.fromisoformat(clock["now"])
    assert abs((now - datetime.now(timezone.utc)).total_seconds()) < 60


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/_emulator/nothing", None, 404),
        ("DELETE", "/_emulator/health", None, 405),
        ("POST", "/_emulator/accounts", b"{not json", 400),
        ("POST", "/_emulator/accounts", b"[1, 2]", 400),
        ("PUT", "/_emulator/accounts/x/quota", b'{"network_count_limit": 1' + ZEROS + b"}", 400),
        ("POST", "/_emulator/faults", b"[" * 5000 + b"]" * 5000, 400),
        ("POST", "/_emulator/reset", b'{"everything": true}', 400),
    ],
)  # fmt: skip
def test_every_admin_error_is_json(
    fresh_emulator: Emulator, method: str, path: str, body: bytes | None, status: int
) -> None:
    answer = send(fresh_emulator, method, path, body, JSON)
    assert answer[0] == status and answer[1]["result"] == "failed", answer


def _admin_from(app: Any, address: str, host: str) -> int:
    from werkzeug.test import Client

    answer = Client(app).get(
        "/_emulator/accounts", headers={"Host": host}, environ_base={"REMOTE_ADDR": address}
    )
    return answer.status_code


def test_admin_callers_of_the_networks_named_are_answered_others_refused() -> None:
    # A container's host reaches it through Docker's bridge (172.17.0.1), not loopback.
    with Emulator(admin_from=["172.16.0.0/12"]) as emulator:
        host = f"127.0.0.1:{urlsplit(emulator.api_url).port}"
        assert _admin_from(emulator.app, "172.17.0.1", host) == 200
        assert _admin_from(emulator.app, "::ffff:172.17.0.1", host) == 200
        assert _admin_from(emulator.app, "192.168.1.20", host) == 403
    with Emulator() as emulator:
        host = f"127.0.0.1:{urlsplit(emulator.api_url).port}"
        assert _admin_from(emulator.app, "172.17.0.1", host) == 403
        assert _admin_from(emulator.app, "127.0.0.1", host) == 200


def test_a_public_host_names_the_reported_urls_and_is_served() -> None:
    with Emulator(public_host="localhost") as emulator:
        port = urlsplit(emulator.api_url).port
        assert emulator.api_url == f"http://localhost:{port}"
        assert emulator.s3_url.startswith("http://localhost:")
        _, store = call(emulator, "POST", "/v2/objectstores", {"name": "photos"})
        assert store["objectstore_endpoint"].startswith(f"{emulator.s3_url}/"), store
        headers = {"Host": f"localhost:{port}"}
        assert send(emulator, "GET", "/_emulator/accounts", headers=headers)[0] == 200
