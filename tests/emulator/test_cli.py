"""``python -m altostratus.emulator``: flags, printed URLs, and a clean exit on SIGTERM."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import urllib.request

from altostratus.emulator.__main__ import configure_parser


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
