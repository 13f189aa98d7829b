"""The ``altostratus`` command as a user meets it: help, quota, the webhook listener, failures."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from altostratus.cli import main
from altostratus.cli._failure import fail_with
from altostratus.client.errors import APIConnectionError
from altostratus.emulator import Emulator
from altostratus.webhooks import compute_signature
from tests.support.ports import refusing_port

ALTOSTRATUS = [sys.executable, "-m", "altostratus"]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.startswith(("ALTOSTRATUS_", "CLI_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("CLI_CONFIG_DIR", str(tmp_path / "no-cli-config"))


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for command in ("emulator", "run", "quota", "webhooks", "migrate"):
        assert command in out


def test_a_short_flag_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-h"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--help" in err


def test_quota_prints_a_table(
    fresh_emulator: Emulator,
    clean_env: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("ALTOSTRATUS_API_KEY", fresh_emulator.api_key)
    assert main(["quota", "--api-url", fresh_emulator.api_url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["resource", "usage", "limit"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    assert rows["network_count"] == ["0", "10"]
    assert rows["security_group"] == ["0", "20"]


def test_quota_json_is_the_raw_payload(
    fresh_emulator: Emulator,
    clean_env: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CLI_API_KEY", fresh_emulator.api_key)
    monkeypatch.setenv("CLI_API_URL", fresh_emulator.api_url)
    assert main(["quota", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["public_ip_address_limit"] == 10
    assert payload["network_count_usage"] == 0


def test_quota_with_a_wrong_key_fails_in_one_line(
    fresh_emulator: Emulator,
    clean_env: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("ALTOSTRATUS_API_KEY", "not-a-key")
    assert main(["quota", "--api-url", fresh_emulator.api_url]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith("altostratus: error: 401")
    assert "not-a-key" not in err


def test_quota_without_a_key_says_to_set_the_variable_and_the_emulators_key(
    clean_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["quota"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "export CLI_API_KEY=local-dev-key" in err
    for way in ("CLI_API_KEY", "ALTOSTRATUS_API_KEY", "credentials.json", "cli setup"):
        assert way in err
    # The command has no key argument or stack to configure.
    assert "api_key" not in err and "pulumi config" not in err


def test_quota_against_nothing_listening_fails_in_one_line(
    clean_env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ALTOSTRATUS_API_KEY", "k")
    assert main(["quota", "--api-url", "http://127.0.0.1:9"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot reach http://127.0.0.1:9" in err


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]"])
def test_refused_on_this_machine_suggests_starting_the_emulator(
    host: str,
    clean_env: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("ALTOSTRATUS_API_KEY", "k")
    with refusing_port() as port:
        assert main(["quota", "--api-url", f"http://{host}:{port}"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert "Connection refused" in line or "Errno" in line, line
    assert line.endswith(
        "Start it with `altostratus emulator`, or pass --api-url with the API's address"
    ), line


def test_a_refusal_elsewhere_does_not_suggest_the_emulator(
    capsys: pytest.CaptureFixture[str],
) -> None:
    refused = APIConnectionError(
        "cannot reach http://10.1.2.3:8787", method="GET", path="/v2/quota"
    )
    refused.__cause__ = ConnectionRefusedError(111, "Connection refused")
    assert fail_with(refused, api_url="http://10.1.2.3:8787") == 1
    assert fail_with(refused, api_url="http://127.0.0.1:8787") == 1
    elsewhere, here = capsys.readouterr().err.splitlines()
    assert "emulator" not in elsewhere and "altostratus emulator" in here


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://[::1", "the API URL 'http://[::1' cannot be read (Invalid IPv6 URL)"),
        ("http://127.0.0.1:99999", "the API URL 'http://127.0.0.1:99999' cannot be read"),
        ("127.0.0.1:8787", "the API URL '127.0.0.1:8787' is not an http:// or https:// URL"),
    ],
)
def test_a_url_that_cannot_be_one_is_named_in_one_line(
    url: str, said: str, clean_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ALTOSTRATUS_API_KEY", "k")
    answer = subprocess.run(
        [*ALTOSTRATUS, "quota", "--api-url", url], capture_output=True, text=True, timeout=60
    )
    assert answer.returncode == 1
    (line,) = answer.stderr.splitlines()
    assert line.startswith(f"altostratus: error: {said}"), line
    assert line.endswith("give one such as http://127.0.0.1:8787")


@pytest.mark.parametrize("suffix", ["/v2", "/v2/", "/"])
def test_the_api_url_may_end_with_the_version(
    suffix: str,
    fresh_emulator: Emulator,
    clean_env: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("ALTOSTRATUS_API_KEY", fresh_emulator.api_key)
    assert main(["quota", "--json", "--api-url", fresh_emulator.api_url + suffix]) == 0
    assert json.loads(capsys.readouterr().out)["network_count_usage"] == 0


def test_listen_without_a_secret_names_the_flag(
    clean_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["webhooks", "listen", "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert "--secret" in err and "ALTOSTRATUS_WEBHOOK_SECRET" in err


@pytest.fixture
def listener() -> Iterator[tuple[subprocess.Popen[str], str]]:
    process = subprocess.Popen(
        [*ALTOSTRATUS, "webhooks", "listen", "--secret", "s3cret", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    assert first.startswith("listening on http://127.0.0.1:")
    yield process, first.split()[2]
    process.terminate()
    process.wait(timeout=10)


def deliver(url: str, body: bytes, signature: str) -> int:
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "X-Service-Signature": signature,
            "X-Service-Event": "5a0c1e4e-2f7b-4c39-9a51-0b8d3f1f6a20",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_listen_verifies_and_prints_each_delivery(
    listener: tuple[subprocess.Popen[str], str],
) -> None:
    process, url = listener
    body = b'{"event": "network.created", "resourceID": "net-1"}'
    good = deliver(url, body, compute_signature(body, "s3cret"))
    bad = deliver(url, body, compute_signature(body, "wrong"))
    assert process.stdout is not None
    verified = process.stdout.readline().split()
    refused = process.stdout.readline()
    assert (good, bad) == (200, 401), (verified, refused)
    assert verified[:4] == ["verified", "network.created", "resource", "net-1"]
    assert verified[-1] == "5a0c1e4e-2f7b-4c39-9a51-0b8d3f1f6a20"
    assert refused.startswith("REFUSED") and "does not match" in refused


def test_python_dash_m_runs_the_command() -> None:
    answer = subprocess.run([*ALTOSTRATUS, "--version"], capture_output=True, text=True)
    assert answer.returncode == 0 and answer.stdout.startswith("altostratus ")


def raw_request(url: str, request: bytes) -> bytes:
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname or "", parts.port or 80), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    return answer


@pytest.mark.parametrize(
    ("length_header", "status"),
    [
        (b"Content-Length: abc\r\n", b"400"),
        (b"Content-Length: -5\r\n", b"400"),
        (b"Content-Length: 5\r\nContent-Length: 6\r\n", b"400"),
        (b"", b"411"),
        (b"Content-Length: 99999999999\r\n", b"413"),
    ],
)
def test_listen_answers_a_malformed_request_and_keeps_serving(
    listener: tuple[subprocess.Popen[str], str], length_header: bytes, status: bytes
) -> None:
    process, url = listener
    request = b"POST / HTTP/1.1\r\nHost: x\r\n" + length_header + b"\r\n{}"
    answer = raw_request(url, request)
    assert answer.split(b" ", 2)[1] == status, answer
    assert process.stdout is not None
    assert process.stdout.readline().startswith("REFUSED")
    body = b'{"event": "network.created", "resourceID": "net-1"}'
    assert deliver(url, body, compute_signature(body, "s3cret")) == 200
    assert process.stdout.readline().startswith("verified")


def test_listen_escapes_control_characters(listener: tuple[subprocess.Popen[str], str]) -> None:
    process, url = listener
    event = "network.created\x1b[2J\r\nverified  forged.event\u202e"
    body = json.dumps({"event": event, "resourceID": "net\x07-1"}).encode()
    assert deliver(url, body, compute_signature(body, "s3cret")) == 200
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("verified  network.created\\x1b[2J\\r\\nverified  forged.event\\u202e")
    assert "resource net\\x07-1" in line
    assert not any(ch in line.rstrip("\n") for ch in "\x1b\r\n\x07\u202e")


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--port", "99999"], "--port: '99999' is not a port: give 1 to 65535, or 0"),
        (["--port", "-1"], "--port: '-1' is not a port"),
        (["--host", "no-such-host.invalid", "--port", "0"], "unknown host; pass --host"),
    ],
)
def test_listen_with_a_bad_port_or_host_fails_in_one_line(flags: list[str], expected: str) -> None:
    answer = subprocess.run(
        [*ALTOSTRATUS, "webhooks", "listen", "--secret", "s", *flags],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    err = answer.stderr.strip()
    assert answer.returncode != 0 and len(err.splitlines()) == 1, err
    assert expected in err and "Traceback" not in err


def test_listen_on_a_busy_port_fails_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        answer = subprocess.run(
            [*ALTOSTRATUS, "webhooks", "listen", "--secret", "s", "--port", str(port)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    err = answer.stderr.strip()
    assert answer.returncode == 1 and len(err.splitlines()) == 1, err
    assert f"cannot listen on 127.0.0.1:{port}: address already in use" in err
    assert err.endswith("pass another --port, or 0 for a free one")
