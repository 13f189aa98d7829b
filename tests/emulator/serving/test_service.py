"""The emulator as a service: kept-alive connections, its own ports closed to webhooks, and
network ranges handed out at the same cost however many networks an account holds."""

from __future__ import annotations

import http.client
import ipaddress
import json
import logging
from typing import Any
from urllib.parse import urlsplit

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.emulator.reading.bodies import NetworkCreate
from altostratus.emulator.state.base import Effects

from .test_server import call


def test_one_connection_serves_many_requests(fresh_emulator: Emulator) -> None:
    parts = urlsplit(fresh_emulator.api_url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    headers = {"Authorization": f"Bearer {fresh_emulator.api_key}"}
    try:
        for _ in range(3):
            connection.request("GET", "/v2/vpc/networks", headers=headers)
            answer = connection.getresponse()
            assert answer.status == 200 and json.loads(answer.read())
            assert answer.version == 11 and not answer.will_close
    finally:
        connection.close()


def test_the_client_reuses_its_connection(
    fresh_emulator: Emulator, caplog: pytest.LogCaptureFixture
) -> None:
    client = Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url)
    with caplog.at_level(logging.DEBUG, logger="altostratus.emulator.http"):
        for number in range(5):
            client.networks.create(label=f"n{number}")
        client.networks.list()
    client.close()
    peers = {r.getMessage().split()[0] for r in caplog.records if "/v2/" in r.getMessage()}
    assert len(peers) == 1, peers


def test_an_empty_key_or_a_port_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="api_key"):
        Emulator(api_key="")
    with pytest.raises(ValueError, match="port"):
        Emulator(port=99999)
    with pytest.raises(ValueError, match="s3_port"):
        Emulator(s3_port=-1)


def _networks(emulator: Emulator) -> list[str]:
    return [n["label"] for n in call(emulator, "GET", "/v2/vpc/networks")[1]]


@pytest.mark.parametrize(
    ("host", "path", "port"),
    [
        ("127.0.0.1", "/v2/vpc/networks", "api"),  # (admin paths are refused at create)
        ("localhost", "/v2/vpc/networks", "api"),
        ("127.0.0.1", "/", "s3"),
    ],
)
def test_a_webhook_never_reaches_the_emulator_itself(
    fresh_emulator: Emulator, host: str, path: str, port: str
) -> None:
    own = urlsplit(fresh_emulator.api_url if port == "api" else fresh_emulator.s3_url).port
    url = f"http://{host}:{own}{path}"
    body = {"url": url, "events": ["network.created"], "secret": "s"}
    status, webhook = call(fresh_emulator, "POST", "/v2/webhooks", body)
    assert status == 200
    call(fresh_emulator, "POST", "/v2/vpc/networks", {"label": "kept"})
    assert call(fresh_emulator, "POST", f"/v2/webhooks/{webhook['id']}/test")[0] == 200
    assert fresh_emulator.dispatcher.wait_idle(10)
    assert _networks(fresh_emulator) == ["Default", "kept"]
    deliveries = call(fresh_emulator, "GET", "/_emulator/deliveries")[1]
    assert len(deliveries) == 2
    for delivery in deliveries:
        assert delivery["status_code"] is None
        assert "the emulator itself" in delivery["error"]
    log = call(fresh_emulator, "GET", "/_emulator/requests")[1]
    assert all(entry["path"] != "/" for entry in log)


def _fill(emulator: Emulator, count: int) -> None:
    state = emulator.state
    account = state.default_account
    with state.lock:
        account.limits["network_count"] = count + 10
        for number in range(count):
            state.networks.create(account.id, "LON1", Effects(), NetworkCreate(label=f"n{number}"))


def test_network_ranges_cost_the_same_at_any_count(
    fresh_emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Handing out a range tests a bounded number of ranges, not every range against every
    network (which made the 1 000th create take most of a second)."""
    _fill(fresh_emulator, 2000)
    tested: list[Any] = []
    overlaps = ipaddress.IPv4Network.overlaps

    def counting(self: ipaddress.IPv4Network, other: Any) -> bool:
        tested.append(other)
        return overlaps(self, other)

    monkeypatch.setattr(ipaddress.IPv4Network, "overlaps", counting)
    status, created = call(fresh_emulator, "POST", "/v2/vpc/networks", {"label": "next"})
    assert status == 200
    assert len(tested) <= 4
    monkeypatch.undo()
    network = call(fresh_emulator, "GET", f"/v2/vpc/networks/{created['id']}")[1]
    assert network["cidr"] == "10.7.209.0/24"


def test_freed_and_user_ranges_are_respected(fresh_emulator: Emulator) -> None:
    def create(body: dict[str, Any]) -> dict[str, Any]:
        status, created = call(fresh_emulator, "POST", "/v2/vpc/networks", body)
        assert status == 200, created
        return dict(call(fresh_emulator, "GET", f"/v2/vpc/networks/{created['id']}")[1])

    first = create({"label": "a"})
    create({"label": "b", "cidr_v4": "10.0.2.0/23"})
    third = create({"label": "c"})
    assert (first["cidr"], third["cidr"]) == ("10.0.1.0/24", "10.0.4.0/24")
    assert call(fresh_emulator, "DELETE", f"/v2/vpc/networks/{first['id']}")[0] == 200
    assert [create({"label": x})["cidr"] for x in "de"] == ["10.0.1.0/24", "10.0.5.0/24"]
