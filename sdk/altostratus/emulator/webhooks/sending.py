"""One delivery attempt over HTTP(S): POST the body, judge the answer.

Every attempt ends in an ``Outcome``, whatever the URL or the receiver does: a URL that cannot
be sent to is a failed attempt saying why, never an exception that would leave no record. What
makes a URL unusable is said once, in ``url_problem``, which the webhook routes also use to refuse
such a URL at create and update. No delivery reaches an emulator's admin endpoints: a URL whose
path is under ``/_emulator`` is refused (any emulator's, on any port), and every delivery carries
``X-Service-Event``, which the admin endpoints refuse.
"""

from __future__ import annotations

import http.client
import ipaddress
import posixpath
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

_MAX_ANSWER_BYTES = 64 * 1024
#: The path of every emulator's admin endpoints.
ADMIN_PREFIX = "/_emulator"
#: How deliveries name themselves: the start of their ``User-Agent``.
DELIVERY_AGENT = "altostratus-emulator/"
#: The characters of a request target sent as they are; the rest (non-ASCII text, spaces) is
#: percent-encoded, as browsers and HTTP clients do.
_TARGET_SAFE = "!#$%&'()*+,/:;=?@[]~"


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


def is_admin_path(path: str) -> bool:
    """Whether ``path`` reaches an emulator's admin endpoints, however it is spelled (escaped,
    doubled slashes, dot segments, upper case)."""
    normal = posixpath.normpath("/" + unquote(path)).lstrip("/")
    return normal.split("/", 1)[0].lower() == ADMIN_PREFIX.strip("/")


def url_problem(url: str) -> str | None:
    """Why no delivery can be sent to ``url``; None when one can be tried."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises for a port that is not a number up to 65535)
    except ValueError as error:
        return f"the URL cannot be read ({error})"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "the URL must be an http or https URL with a host"
    if any(ch.isspace() or ch < " " or "\ud800" <= ch <= "\udfff" for ch in url):
        return "the URL holds spaces, control characters or lone surrogates"
    try:
        parts.hostname.encode("idna")
    except UnicodeError:
        return f"the URL's host {parts.hostname!r} is not a valid name"
    if is_admin_path(parts.path):
        return (
            f"the URL names an emulator's admin endpoints ({ADMIN_PREFIX}), "
            "which no delivery reaches"
        )
    return None


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
    problem = url_problem(url)
    if problem is not None:
        return Outcome(None, problem)
    parts = urlsplit(url)
    host = (parts.hostname or "").encode("idna").decode("ascii")
    if not remote and not is_loopback(host):
        return Outcome(
            None,
            f"{host or 'the host'} is not a loopback address; the emulator delivers elsewhere "
            "only when started with --remote-deliveries",
        )
    target = quote((parts.path or "/") + (f"?{parts.query}" if parts.query else ""), _TARGET_SAFE)
    port = parts.port or (443 if parts.scheme == "https" else 80)
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
    except Exception as error:  # anything else a URL or a receiver can cause: still an outcome
        return Outcome(None, f"the delivery could not be sent ({type(error).__name__}: {error})")
    finally:
        connection.close()
    if time.monotonic() - started > timeout:
        return Outcome(status, f"timed out after {_seconds(shown_timeout)} s")
    if not 200 <= status < 300:
        return Outcome(status, f"answered HTTP {status}")
    return Outcome(status, None)
