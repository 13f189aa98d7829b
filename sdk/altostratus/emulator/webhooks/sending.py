"""One delivery attempt over HTTP(S): POST the body, judge the answer."""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

_MAX_ANSWER_BYTES = 64 * 1024


@dataclass(frozen=True)
class Outcome:
    status_code: int | None
    error: str | None
    """A short sentence saying why the attempt failed; None when it succeeded."""

    @property
    def ok(self) -> bool:
        return self.error is None


def _seconds(value: float) -> str:
    return f"{value:g}"


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine without asking a resolver: localhost or 127/8, ::1."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_this_machine(address: str) -> bool:
    """Whether ``address`` (an IP) is one of this machine's own: loopback, unspecified, or one
    a socket can be bound to."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if ip.is_loopback or ip.is_unspecified:
        return True
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((address, 0))
    except OSError:
        return False
    return True


def _connect(
    host: str, port: int, timeout: float, refused_ports: frozenset[int]
) -> socket.socket | str:
    """A connected socket, or why the attempt stops: the peer is this machine on one of
    ``refused_ports`` (the emulator's own), whatever name or address led there."""
    sock = socket.create_connection((host, port), timeout=timeout)
    peer_address, peer_port = sock.getpeername()[:2]
    if peer_port in refused_ports and is_this_machine(peer_address):
        sock.close()
        return "the URL points at the emulator itself; deliveries never reach its own ports"
    return sock


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    timeout: float,
    shown_timeout: float,
    *,
    remote: bool = False,
    refused_ports: frozenset[int] = frozenset(),
) -> Outcome:
    """POST within ``timeout`` real seconds; ``shown_timeout`` is what failure reasons quote.

    Unless ``remote`` is true, only loopback receivers are contacted: any other host fails the
    attempt at once, before any name is resolved or connection made. A connection that reaches
    this machine on one of ``refused_ports`` is closed before a byte is sent, so a webhook can
    never call the emulator's own API (its admin endpoints included) or S3.
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if not remote and not is_loopback(host):
        return Outcome(
            None,
            f"{host or 'the host'} is not a loopback address; the emulator delivers elsewhere "
            "only when started with --remote-deliveries",
        )
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    if parts.scheme not in ("http", "https"):
        return Outcome(None, f"the URL scheme {parts.scheme!r} is not http or https")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return Outcome(None, "the URL's port is not a number from 0 to 65535")
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    started = time.monotonic()
    try:
        sock = _connect(host, port, timeout, refused_ports)
        if isinstance(sock, str):
            return Outcome(None, sock)
        connection.sock = sock
        if parts.scheme == "https":
            context = ssl.create_default_context()
            connection.sock = context.wrap_socket(sock, server_hostname=host)
        connection.request("POST", target, body=body, headers=headers)
        answer = connection.getresponse()
        answer.read(_MAX_ANSWER_BYTES)
        status = answer.status
    except TimeoutError:
        return Outcome(None, f"timed out after {_seconds(shown_timeout)} s")
    except ConnectionRefusedError:
        return Outcome(None, "connection refused")
    except socket.gaierror:
        return Outcome(None, f"could not resolve host {host}")
    except ssl.SSLError as error:
        return Outcome(None, f"TLS handshake failed: {error.reason or error}")
    except (OSError, http.client.HTTPException) as error:
        return Outcome(None, f"connection failed: {error or type(error).__name__}")
    finally:
        connection.close()
    if time.monotonic() - started > timeout:
        return Outcome(status, f"timed out after {_seconds(shown_timeout)} s")
    if not 200 <= status < 300:
        return Outcome(status, f"answered HTTP {status}")
    return Outcome(status, None)
