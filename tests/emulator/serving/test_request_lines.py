"""``altostratus emulator`` prints one line per request, naming the fields it ignored."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from altostratus.emulator.serving.request_lines import json_line, text_line
from tests.support.interrupt import ctrl_c_stops

HEADER_LINES = 3  # API, S3, API key


@contextmanager
def serving(*flags: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    process = subprocess.Popen(
        ctrl_c_stops(
            [
                sys.executable,
                *("-m", "altostratus", "emulator"),
                *("--port", "0", "--s3-port", "0"),
                *flags,
            ]
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        header = [process.stdout.readline() for _ in range(HEADER_LINES)]
        yield process, header[0].split()[-1]
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=10)


def create_network(api_url: str) -> int:
    body = {"label": "app", "cidr_v4": "10.9.0.0/24", "colour": "red"}
    request = urllib.request.Request(
        api_url + "/v2/vpc/networks?region=LON1&verbose=1",
        data=json.dumps(body).encode(),
        headers={"Authorization": "bearer local-dev-key", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return int(answer.status)


def test_a_request_prints_one_line_naming_its_ignored_fields() -> None:
    with serving() as (process, api_url):
        assert create_network(api_url) == 200
        assert process.stdout is not None
        line = process.stdout.readline().strip()
    method, path, status, took, *rest = line.split(" ", 4)
    assert (method, path, status) == ("POST", "/v2/vpc/networks", "200")
    assert took.endswith("ms") and float(took[:-2]) >= 0
    assert rest == ["ignored: body.colour, query.verbose"]


def test_json_lines_for_machines() -> None:
    with serving("--log-format", "json") as (process, api_url):
        create_network(api_url)
        assert process.stdout is not None
        line = json.loads(process.stdout.readline())
    assert {k: line[k] for k in ("method", "path", "status")} == {
        "method": "POST",
        "path": "/v2/vpc/networks",
        "status": 200,
    }
    assert line["ignored"] == {"body": ["colour"], "query": ["verbose"]}


def test_quiet_prints_no_request_line() -> None:
    with serving("--quiet") as (process, api_url):
        create_network(api_url)
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=10)
    assert out == ""


def test_a_dropped_connection_has_no_status() -> None:
    entry = {"method": "GET", "path": "/v2/webhooks", "status": None, "ignored": {}}
    assert text_line(entry, 0.0015) == "GET /v2/webhooks - 1.5ms"
    assert json.loads(json_line(entry, 0.0015))["status"] is None


HOSTILE_PATHS = {
    "/v2/vpc/networks/%1b]0;owned%07": "/v2/vpc/networks/\\x1b]0;owned\\x07",
    "/v2/vpc/networks/%1b[2J%1b[H": "/v2/vpc/networks/\\x1b[2J\\x1b[H",
    "/v2/vpc/networks/x%0aGET%20/v2/forged%20200%200.1ms": (
        "/v2/vpc/networks/x\\nGET /v2/forged 200 0.1ms"
    ),
    "/v2/vpc/networks/%c2%9b2J%0d": "/v2/vpc/networks/\\x9b2J\\r",
}


def _get(api_url: str, path: str, key: str | None) -> int:
    host, port = api_url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        headers = {"Authorization": f"bearer {key}"} if key else {}
        connection.request("GET", path, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def test_control_characters_in_a_path_are_printed_escaped_on_one_line() -> None:
    """ESC, BEL, C1 CSI and line breaks a request's path carries (percent-encoded, then decoded
    by the server) reach the terminal escaped, with or without a key (a 401 is printed too)."""
    with serving() as (process, api_url):
        statuses = [
            _get(api_url, path, key) for key in ("local-dev-key", None) for path in HOSTILE_PATHS
        ]
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=10)
    assert statuses == [404] * len(HOSTILE_PATHS) + [401] * len(HOSTILE_PATHS)
    lines = out.splitlines()[: len(statuses)]
    assert not any(line.startswith("GET /v2/forged") for line in out.splitlines())
    for line, (path, status) in zip(
        lines, [(p, s) for s in (404, 401) for p in HOSTILE_PATHS.values()], strict=True
    ):
        assert line.startswith(f"GET {path} {status} "), line
        assert line.isprintable(), line


def test_ignored_field_names_are_printed_escaped() -> None:
    entry = {"method": "POST", "path": "/v2/webhooks", "status": 200}
    entry["ignored"] = {"body": ["\x1b[2J", "a\nPOST /forged 200 0.1ms"], "query": ["\x07"]}
    line = text_line(entry, 0.001)
    assert line.isprintable()
    assert line.endswith("ignored: body.\\x1b[2J, body.a\\nPOST /forged 200 0.1ms, query.\\x07")
