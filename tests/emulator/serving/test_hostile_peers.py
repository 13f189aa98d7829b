"""Peers that are slow, silent or unauthenticated cannot stop the emulator or grow it: with 64 of
them holding connections to each port a normal request is answered; a peer that never finishes
its headers, or trickles a body, is cut off; refused requests write nothing to the state folder;
the request log holds a bounded number of bytes, and the process's memory stays flat under
thousands of large unauthenticated requests."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from altostratus.emulator import Emulator
from altostratus.emulator.clock import Clock
from altostratus.emulator.control.rate_limit import RateLimiter
from altostratus.emulator.control.request_log import RequestLog
from altostratus.emulator.serving import peers

from .test_server import call

#: Generous: the answer comes at once; this only bounds a test that would otherwise hang.
ANSWERED_WITHIN = 5.0


def _connect(url: str) -> socket.socket:
    parts = urlsplit(url)
    return socket.create_connection((parts.hostname or "", parts.port or 80), timeout=10)


def _hostile(url: str, count: int) -> Iterator[socket.socket]:
    """``count`` peers: silent ones, ones stuck in their headers, and ones whose body (without
    any key) stops after a few bytes."""
    for number in range(count):
        peer = _connect(url)
        if number % 3 == 1:
            peer.sendall(b"GET /v2/vpc/networks HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        elif number % 3 == 2:
            peer.sendall(
                b"PUT /bucket/key HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b'Content-Length: 1000000\r\n\r\n{"a": '
            )
        yield peer


def _get(url: str, path: str, headers: dict[str, str]) -> int:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname or "", parts.port, timeout=ANSWERED_WITHIN
    )
    try:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def test_64_slow_peers_on_each_port_leave_a_normal_request_answered() -> None:
    with Emulator() as emulator, ExitStack() as held:
        for url in (emulator.api_url, emulator.s3_url):
            for peer in _hostile(url, 64):
                held.callback(peer.close)
        key = {"Authorization": f"Bearer {emulator.api_key}"}
        assert _get(emulator.api_url, "/v2/vpc/networks", key) == 200
        assert _get(emulator.s3_url, "/", {}) == 403  # answered: anonymous S3 is refused
        assert _get(emulator.api_url, "/v2/vpc/networks", key) == 200


def _closed_by_server(peer: socket.socket) -> bool:
    """Whether the server closes the connection (after any answer) before the deadline."""
    peer.settimeout(ANSWERED_WITHIN)
    try:
        while peer.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def test_a_peer_that_never_finishes_its_headers_is_cut_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(peers, "HEADER_SECONDS", 0.3)
    with Emulator() as emulator:
        peer = _connect(emulator.api_url)
        peer.sendall(b"GET /v2/vpc/networks HTTP/1.1\r\nHost: x\r\n")
        assert _closed_by_server(peer)


def test_a_trickled_body_is_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(peers, "BODY_GRACE_SECONDS", 0.3)
    with Emulator() as emulator:
        peer = _connect(emulator.api_url)
        peer.sendall(
            f"POST /v2/vpc/networks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            f"{emulator.api_key}\r\nContent-Type: application/json\r\n"
            "Content-Length: 100000\r\n\r\n{".encode()
        )
        assert _closed_by_server(peer)
        status, networks = call(emulator, "GET", "/v2/vpc/networks")
        assert status == 200 and [n["label"] for n in networks] == ["Default"]


def test_a_refused_body_is_not_waited_for() -> None:
    """No key: the 401 comes without the body, and the connection is closed after it."""
    with Emulator() as emulator:
        peer = _connect(emulator.api_url)
        peer.sendall(
            b"POST /v2/vpc/networks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100000\r\n\r\n{"
        )
        peer.settimeout(ANSWERED_WITHIN + peers.DRAIN_SECONDS)
        answer = peer.recv(65536)
        assert answer.startswith(b"HTTP/1.1 401 ")
        assert b"Connection: close" in answer
        assert _closed_by_server(peer)


def _written(emulator: Emulator) -> int:
    """The rows the state folder's database has written since it was opened."""
    assert emulator.folder is not None and emulator.folder._connection is not None
    return emulator.folder._connection.total_changes


def test_refused_requests_write_nothing_to_the_state_folder(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path) as emulator:
        before = _written(emulator)
        parts = urlsplit(emulator.api_url)
        for number in range(30):
            connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
            headers = {"Content-Type": "application/json"}
            if number % 3 == 1:
                headers["Authorization"] = "Bearer not-a-key"
            if number % 3 == 2:  # a key, and a body too large to take
                headers["Authorization"] = f"Bearer {emulator.api_key}"
            body = json.dumps({"label": "x" * (2 << 20 if number % 3 == 2 else 10)})
            connection.request("POST", "/v2/vpc/networks", body=body, headers=headers)
            assert connection.getresponse().status in (401, 413)
            connection.close()
        assert _written(emulator) == before
        fault = {"status": 503, "path_prefix": "/v2/vpc/networks", "count": 5}
        assert call(emulator, "POST", "/_emulator/faults", fault)[0] == 200
        before_faults = _written(emulator)
        for _ in range(5):
            assert call(emulator, "POST", "/v2/vpc/networks", {"label": "x"})[0] == 503
        assert _written(emulator) == before_faults
        assert call(emulator, "POST", "/v2/vpc/networks", {"label": "kept"})[0] == 200
        assert _written(emulator) > before_faults  # a change is still written


def test_the_request_log_holds_a_bounded_number_of_bytes() -> None:
    log = RequestLog(limit=10_000, max_bytes=1024**2)
    for number in range(2_000):
        entry = log.add("GET", "/v2/vpc/networks", {"q": "x" * 30_000, "n": str(number)})
        log.note_ignored(entry, {"body": [], "query": ["q", "n"]})
        assert log.bytes <= 1024**2
    entries = log.entries()
    assert 10 < len(entries) < 40
    assert entries[-1]["query"]["n"] == "1999" and entries[-1]["ignored"]["query"] == ["q", "n"]
    small = RequestLog(limit=100)
    for number in range(1_000):
        small.add("GET", "/", {"n": str(number)})
    assert [e["query"]["n"] for e in small.entries()] == [str(n) for n in range(900, 1000)]


def test_the_rate_limiter_keeps_buckets_for_a_bounded_number_of_keys() -> None:
    limiter = RateLimiter(Clock(), 5.0)
    for number in range(3 * RateLimiter.MAX_KEYS):
        assert limiter.check(f"made-up-key-{number}") is None
    assert len(limiter) <= RateLimiter.MAX_KEYS
    assert limiter.check("made-up-key-0") is None  # a key dropped starts afresh


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_memory_stays_flat_under_large_unauthenticated_requests() -> None:
    process = subprocess.Popen(
        # --quiet: nothing reads the request lines after the first three, and a full pipe would
        # hold the server's print.
        [sys.executable, "-m", "altostratus.emulator", "--port", "0", "--s3-port", "0", "--quiet"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        shown = dict(line.split(":", 1) for line in (process.stdout.readline() for _ in range(3)))
        parts = urlsplit(shown["API"].strip())
        query = "q=" + "x" * 30_000

        def send(count: int) -> None:
            connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
            for number in range(count):
                connection.request("GET", f"/v2/vpc/networks?{query}{number}")
                answer = connection.getresponse()
                answer.read()
                assert answer.status == 401
            connection.close()

        send(1_000)  # past the log's bound: from here on, entries drop out as others come
        settled = _rss_mib(process.pid)
        send(2_000)
        assert _rss_mib(process.pid) - settled < 10  # 2 000 x 30 KB would be 60 MiB more
    finally:
        process.kill()
        process.wait(timeout=10)
