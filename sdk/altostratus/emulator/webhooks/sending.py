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


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    timeout: float,
    shown_timeout: float,
    *,
    remote: bool = False,
) -> Outcome:
    """POST within ``timeout`` real seconds; ``shown_timeout`` is what failure reasons quote.

    Unless ``remote`` is true, only loopback receivers are contacted: any other host fails the
    attempt at once, before any name is resolved or connection made.
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
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        context = ssl.create_default_context()
        connection = http.client.HTTPSConnection(host, parts.port, timeout=timeout, context=context)
    elif parts.scheme == "http":
        connection = http.client.HTTPConnection(host, parts.port, timeout=timeout)
    else:
        return Outcome(None, f"the URL scheme {parts.scheme!r} is not http or https")
    started = time.monotonic()
    try:
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
