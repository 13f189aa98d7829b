"""``altostratus emulator`` prints one line per request, naming the fields it ignored."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from interrupt import default_ctrl_c

from altostratus.emulator.request_lines import json_line, text_line

HEADER_LINES = 3  # API, S3, API key


@contextmanager
def serving(*flags: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "altostratus", "emulator", "--port", "0", "--s3-port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_ctrl_c,
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
