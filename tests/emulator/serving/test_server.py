"""The emulator over real sockets: startup, URLs, faults that need a connection, the clock."""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

import pytest

from altostratus.emulator import Emulator


def call(
    emulator: Emulator,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    *,
    timeout: float = 5.0,
) -> tuple[int, Any]:
    parts = urlsplit(emulator.api_url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
    headers = {"Authorization": f"Bearer {emulator.api_key}"}
    data = None
    if body is not None:
        data = json.dumps(body)
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def test_urls_and_key(emulator: Emulator) -> None:
    assert emulator.api_url.startswith("http://127.0.0.1:")
    assert emulator.s3_url.startswith("http://127.0.0.1:")
    assert emulator.api_url != emulator.s3_url
    assert emulator.api_key == "local-dev-key"


def test_a_user_flow_over_http(fresh_emulator: Emulator) -> None:
    status, created = call(fresh_emulator, "POST", "/v2/vpc/networks", {"label": "web"})
    assert status == 200
    status, network = call(fresh_emulator, "GET", f"/v2/networks/{created['id']}")
    assert (status, network["label"]) == (200, "web")
    status, store = call(fresh_emulator, "POST", "/v2/objectstores", {"name": "photos"})
    assert status == 200
    assert store["objectstore_endpoint"].startswith(fresh_emulator.s3_url + "/photos-")


def test_provisioning_under_the_advanced_clock(fresh_emulator: Emulator) -> None:
    network_id = call(fresh_emulator, "GET", "/v2/vpc/networks")[1][0]["id"]
    body = {"name": "lb", "network_id": network_id, "backends": []}
    status, balancer = call(fresh_emulator, "POST", "/v2/vpc/loadbalancers", body)
    assert (status, balancer["state"]) == (200, "")
    status, clock = call(fresh_emulator, "POST", "/_emulator/clock", {"advance_seconds": 1})
    assert status == 200 and clock["time_scale"] == 1.0
    ready = call(fresh_emulator, "GET", f"/v2/vpc/loadbalancers/{balancer['id']}")[1]
    assert ready["state"] == "available" and ready["public_ip"]


def test_a_dropped_connection_gets_no_answer(fresh_emulator: Emulator) -> None:
    call(
        fresh_emulator,
        "POST",
        "/_emulator/faults",
        {"drop_connection": True, "path_prefix": "/v2/vpc/networks"},
    )
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
        call(fresh_emulator, "GET", "/v2/vpc/networks")
    assert call(fresh_emulator, "GET", "/v2/vpc/networks")[0] == 200
    log = call(fresh_emulator, "GET", "/_emulator/requests")[1]
    assert [entry["status"] for entry in log] == [None, 200]


def test_drop_after_apply_makes_the_change(fresh_emulator: Emulator) -> None:
    fault = {"method": "POST", "drop_connection": True, "after_apply": True}
    call(fresh_emulator, "POST", "/_emulator/faults", fault)
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
        call(fresh_emulator, "POST", "/v2/vpc/networks", {"label": "made"})
    labels = [n["label"] for n in call(fresh_emulator, "GET", "/v2/vpc/networks")[1]]
    assert labels == ["Default", "made"]


def test_a_delay_fault_holds_the_answer(fresh_emulator: Emulator) -> None:
    call(fresh_emulator, "POST", "/_emulator/faults", {"delay_seconds": 0.5, "count": 1})
    with pytest.raises((TimeoutError, socket.timeout)):
        call(fresh_emulator, "GET", "/v2/vpc/networks", timeout=0.1)
    call(fresh_emulator, "POST", "/_emulator/faults", {"delay_seconds": 0.05})
    started = time.monotonic()
    assert call(fresh_emulator, "GET", "/v2/vpc/networks")[0] == 200
    assert time.monotonic() - started >= 0.05


def test_openapi_is_served(emulator: Emulator) -> None:
    with urllib.request.urlopen(emulator.api_url + "/openapi.json", timeout=5) as response:
        assert json.load(response)["openapi"].startswith("3.")


def test_errors_over_http_are_json(emulator: Emulator) -> None:
    request = urllib.request.Request(emulator.api_url + "/v2/vpc/networks")
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=5)
    assert caught.value.code == 401
    assert json.load(caught.value)["code"] == "authentication_invalid_key"


def test_an_emulator_starts_and_stops_on_free_ports() -> None:
    with Emulator(api_key="other-key", time_scale=10) as emulator:
        status, networks = call(emulator, "GET", "/v2/vpc/networks")
        assert status == 200 and len(networks) == 1
        assert call(emulator, "GET", "/_emulator/clock")[1]["time_scale"] == 10
        port = urlsplit(emulator.api_url).port
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port or 0)) != 0


def test_concurrent_creates_keep_names_unique(fresh_emulator: Emulator) -> None:
    from concurrent.futures import ThreadPoolExecutor

    def create(name: str) -> int:
        return call(fresh_emulator, "POST", "/v2/vpc/ips", {"name": name})[0]

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(create, ["same"] * 8))
        assert statuses == [200] + [409] * 7
        assert sorted(pool.map(create, [f"ip{n}" for n in range(8)])) == [200] * 8
    items = call(fresh_emulator, "GET", "/v2/vpc/ips?per_page=100")[1]["items"]
    assert len({item["ip"] for item in items}) == 9


def test_events_reach_a_webhook_signed(fresh_emulator: Emulator) -> None:
    import hashlib
    import hmac
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    received: list[tuple[bytes, dict[str, str]]] = []

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers["Content-Length"])
            received.append((self.rfile.read(length), dict(self.headers)))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/hook"
        body = {"url": url, "events": ["network.created"], "secret": "shh"}
        webhook = call(fresh_emulator, "POST", "/v2/webhooks", body)[1]
        network = call(fresh_emulator, "POST", "/v2/vpc/networks", {"label": "n"})[1]
        call(
            fresh_emulator, "POST", "/v2/vpc/firewalls", {"name": "f", "network_id": network["id"]}
        )
        assert fresh_emulator.dispatcher.wait_idle(10)
        [(payload, headers)] = received
        assert json.loads(payload) == {"event": "network.created", "resourceID": network["id"]}
        expected = hmac.new(b"shh", payload, hashlib.sha1).hexdigest()
        assert headers["X-Service-Signature"] == expected
        [delivery] = call(fresh_emulator, "GET", "/_emulator/deliveries")[1]
        assert (delivery["webhook_id"], delivery["status_code"]) == (webhook["id"], 200)
        assert call(fresh_emulator, "POST", f"/v2/webhooks/{webhook['id']}/test")[0] == 200
        assert fresh_emulator.dispatcher.wait_idle(10)
        assert json.loads(received[-1][0])["event"] == "network.created"
    finally:
        server.shutdown()
        server.server_close()


def test_s3_metadata_names_with_underscores_survive_the_signature(
    fresh_emulator: Emulator,
) -> None:
    import boto3
    from botocore.config import Config

    status, credential = call(
        fresh_emulator, "POST", "/v2/objectstore/credentials", {"name": "meta", "region": "LON1"}
    )
    assert status == 200
    status, store = call(
        fresh_emulator,
        "POST",
        "/v2/objectstores",
        {"name": "meta", "region": "LON1", "access_key_id": credential["access_key_id"]},
    )
    assert status == 200
    bucket = store["objectstore_endpoint"].rsplit("/", 1)[1]
    s3 = boto3.client(
        "s3",
        endpoint_url=fresh_emulator.s3_url,
        aws_access_key_id=credential["access_key_id"],
        aws_secret_access_key=credential["secret_access_key_id"],
        region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )
    s3.put_object(Bucket=bucket, Key="k", Body=b"v", Metadata={"build_id": "42"})
    assert s3.head_object(Bucket=bucket, Key="k")["Metadata"] == {"build_id": "42"}


def test_a_large_answer_reaches_the_socket_in_bounded_slices_and_arrives_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cheroot's writer copies what is left of one write after every partial send, so a 64 MiB
    object handed over whole costs time in the square of its size: the server slices it."""
    from cheroot import makefile

    from altostratus.emulator.serving.server import WRITE_SLICE, BackgroundServer

    body = bytes(range(256)) * (3 * WRITE_SLICE // 256 + 7)
    written: list[int] = []
    write = makefile.BufferedWriter.write

    def recording(self: Any, data: Any) -> int:
        written.append(len(data))
        return int(write(self, data))

    monkeypatch.setattr(makefile.BufferedWriter, "write", recording)

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("200 OK", [("Content-Length", str(len(body)))])
        return [body]

    server = BackgroundServer("127.0.0.1", 0, app, "test")
    server.start()
    try:
        with urllib.request.urlopen(server.url("127.0.0.1"), timeout=10) as answer:
            assert answer.read() == body
    finally:
        server.stop()
    assert sum(written) > len(body) and max(written) <= WRITE_SLICE


def test_a_stop_is_noticed_within_the_servers_short_expiration_interval() -> None:
    from altostratus.emulator.serving.server import EXPIRATION_INTERVAL, BackgroundServer

    server = BackgroundServer("127.0.0.1", 0, lambda environ, start: [], "API")
    assert server._server.expiration_interval == EXPIRATION_INTERVAL <= 0.05
    server.start()
    server.stop()
    assert not server._thread.is_alive()
