"""Who may use the admin endpoints: a program on this machine, never a web page elsewhere.

The admin endpoints answer loopback callers only, and a browser on the same machine is one: a
page from any site could otherwise POST to ``http://127.0.0.1:8787/_emulator/reset``, or point a
name it controls at 127.0.0.1 and read ``/_emulator/accounts`` (DNS rebinding). So an admin
request is refused (403) when

- its ``Host`` is not an address the API is served at (``127.0.0.1``, ``localhost``, ``[::1]``,
  the host it listens on or its public host, with the API port): a rebound name fails here;
- it carries an ``Origin`` other than such an address (browsers send one on cross-site requests,
  and on every POST);
- it would change something (any method but GET and HEAD) without ``Content-Type:
  application/json`` (415): a page cannot send that across sites without a CORS preflight, which
  the emulator never grants;
- it is a webhook delivery, this emulator's or another's (it carries ``X-Service-Event``, or the
  deliveries' ``User-Agent``): a webhook pointed at a neighbouring emulator's admin endpoints
  cannot drive them.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from werkzeug.wrappers import Request

from altostratus.emulator.errors import Forbidden, UnsupportedMediaType
from altostratus.emulator.webhooks.sending import DELIVERY_AGENT

_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def served_hosts(host: str, port: int, *others: str) -> frozenset[str]:
    """The ``Host`` values that name the API at ``host:port`` (or at one of the `others` names,
    such as the public host a container is reached by, with that port)."""
    names = {*_LOOPBACK_NAMES, *(f"[{h}]" if ":" in h else h for h in (host, *others))}
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:
        hosts |= names
    return frozenset(h.lower() for h in hosts)


def check(request: Request, hosts: Iterable[str] | None) -> None:
    """Refuse an admin request that may come from another site or is a webhook delivery (see
    the module's rules). ``hosts`` None (an application not served by ``Emulator``) skips the
    ``Host`` rule."""
    if "X-Service-Event" in request.headers or request.user_agent.string.startswith(DELIVERY_AGENT):
        raise Forbidden(
            "The admin endpoints do not answer webhook deliveries", "admin_webhook_delivery"
        )
    allowed = None if hosts is None else frozenset(hosts)
    host = request.headers.get("Host", "").strip().lower()
    if allowed is not None and host not in allowed:
        raise Forbidden(
            f"The admin endpoints answer requests for this emulator's own address only, "
            f"not Host {host[:100]!r}",
            "admin_cross_site",
        )
    origin = request.headers.get("Origin")
    if origin is not None and not _same_origin(origin, allowed or frozenset({host})):
        raise Forbidden(
            "The admin endpoints do not answer other sites' pages (Origin "
            f"{origin.strip()[:100]!r})",
            "admin_cross_site",
        )


def check_json_body(request: Request) -> None:
    """415 for a change (any method but GET and HEAD) not sent as JSON."""
    if request.method not in ("GET", "HEAD") and request.mimetype != "application/json":
        raise UnsupportedMediaType(
            "Admin changes take a JSON body: send Content-Type: application/json"
        )


def _same_origin(origin: str, hosts: frozenset[str]) -> bool:
    parts = urlsplit(origin.strip().lower())
    return parts.scheme == "http" and not parts.path.strip("/") and parts.netloc in hosts
