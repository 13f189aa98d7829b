"""``python -m altostratus.emulator``: flags, printed URLs, one-line failures, and a clean exit
on SIGTERM and Ctrl-C."""

from __future__ import annotations

import argparse
import json
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

from altostratus.cli._emulator import configure_parser
from altostratus.cli._serve import _emulator
from tests.support.interrupt import ctrl_c_stops


def test_flags_and_defaults() -> None:
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    defaults = parser.parse_args([])
    assert (defaults.host, defaults.port, defaults.s3_port) == ("127.0.0.1", 8787, 8788)
    assert (defaults.api_key, defaults.time_scale, defaults.rate_limit) == (
        "local-dev-key",
        1.0,
        None,
    )
    assert (defaults.lb_ready_seconds, defaults.objectstore_ready_seconds) == (2.0, 1.0)
    given = parser.parse_args(
        ["--port", "0", "--s3-port", "0", "--api-key", "k", "--time-scale", "60",
         "--lb-ready-seconds", "0", "--objectstore-ready-seconds", "0.5", "--rate-limit", "5"]
    )  # fmt: skip
    assert (given.port, given.api_key, given.time_scale, given.rate_limit) == (0, "k", 60.0, 5.0)


def test_delete_seconds_flag() -> None:
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    assert parser.parse_args([]).delete_seconds == 0.0
    assert parser.parse_args(["--delete-seconds", "2.5"]).delete_seconds == 2.5
    with pytest.raises(SystemExit):
        parser.parse_args(["--delete-seconds", "-1"])


def test_strict_makes_a_strict_emulator() -> None:
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    assert parser.parse_args([]).strict is False
    emulator = _emulator(parser.parse_args(["--port", "0", "--s3-port", "0", "--strict"]))
    assert emulator.app.strict is True
    emulator.stop()


def test_serves_until_sigterm_and_exits_zero() -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "altostratus.emulator",
            "--port",
            "0",
            "--s3-port",
            "0",
            "--api-key",
            "cli-key",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
        api_url = lines[0].split()[-1]
        assert api_url.startswith("http://127.0.0.1:")
        assert lines[1].split()[-1].startswith("http://127.0.0.1:")
        assert lines[2].split()[-1] == "cli-key"
        request = urllib.request.Request(
            api_url + "/v2/quota", headers={"Authorization": "bearer cli-key"}
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            assert "network_count_limit" in json.load(response)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _one_line_failure(argv: list[str]) -> str:
    answer = subprocess.run(
        [sys.executable, "-m", "altostratus", *argv], capture_output=True, text=True, timeout=60
    )
    err = answer.stderr.strip()
    assert answer.returncode == 1, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--port", "99999"], "--port: '99999' is not a port: give 1 to 65535, or 0"),
        (["--port", "-1"], "--port: '-1' is not a port"),
        (["--s3-port", "http"], "--s3-port: 'http' is not a port"),
        (["--api-key", ""], "--api-key: must not be empty"),
        (["--api-key", "a key"], "--api-key: must not hold spaces"),
        (["--time-scale", "nan"], "--time-scale: must be a finite number"),
    ],
)
def test_bad_flags_fail_in_one_line(flags: list[str], expected: str) -> None:
    assert expected in _one_line_failure(["emulator", *flags])


def test_a_busy_port_fails_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = _one_line_failure(["emulator", "--port", "0", "--s3-port", str(port)])
    assert f"cannot listen on 127.0.0.1:{port} for S3: address already in use" in err
    assert err.endswith("pass another --s3-port, or 0 for a free one")


def test_an_unknown_host_fails_in_one_line() -> None:
    err = _one_line_failure(["emulator", "--host", "no-such-host.invalid", "--port", "0"])
    assert "no-such-host.invalid" in err and "unknown host" in err and "--host" in err


def test_without_the_extra_the_flags_parse_and_name_the_extra() -> None:
    script = (
        "import sys; sys.modules['cheroot'] = None; from altostratus.cli import main; "
        "sys.exit(main(['emulator', '--port', '0', '--s3-port', '0', '--api-key', 'k']))"
    )
    answer = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    err = answer.stderr.strip()
    assert answer.returncode == 1 and len(err.splitlines()) == 1, err
    assert "pip install 'altostratus[emulator]'" in err and "unrecognized" not in err


def test_ctrl_c_stops_both_servers_and_exits_zero() -> None:
    process = subprocess.Popen(
        ctrl_c_stops(
            [sys.executable, "-m", "altostratus.emulator", "--port", "0", "--s3-port", "0"]
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        urls = [process.stdout.readline().split()[-1] for _ in range(2)]
        ports = [int(url.rsplit(":", 1)[1]) for url in urls]
        with urllib.request.urlopen(urls[0] + "/_emulator/health", timeout=5) as response:
            assert json.load(response) == {"status": "ok"}
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 0
        assert process.stderr is not None and "Traceback" not in process.stderr.read()
        for port in ports:
            with socket.socket() as probe:
                assert probe.connect_ex(("127.0.0.1", port)) != 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
