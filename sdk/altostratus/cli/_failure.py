"""Turning the library's errors into the command's one-line failures."""

from __future__ import annotations

import ipaddress
import sys
from urllib.parse import urlsplit

from altostratus.client.errors import AltostratusError, APIConnectionError, NotFoundError

#: The command's name as its messages start: ``altostratus``, or ``cli`` (see ``entry``).
PROGRAM = {"name": "altostratus"}


def fail(message: str) -> int:
    """Print one line to standard error and answer the failure status."""
    print(f"{PROGRAM['name']}: error: {message}", file=sys.stderr)
    return 1


def fail_with(error: AltostratusError, api_url: str | None = None, org: str | None = None) -> int:
    """One actionable line for a client error: a 404 hints at what to check (the name and the
    organization, for a command that worked in one), a connection refused at a loopback
    ``api_url`` at starting the emulator."""
    message = str(error)
    if isinstance(error, NotFoundError) and org is not None:
        message += (
            f"; check the app name and the organization ({org!r}; another one with --org or "
            "CLI_ORG)"
        )
    elif isinstance(error, NotFoundError):
        message += "; check the identifier, the region and the account the API key belongs to"
    elif api_url and _refused(error) and _is_loopback(api_url):
        message += (
            "; is the emulator running? Start it with `altostratus emulator`, "
            "or pass --api-url with the API's address"
        )
    return fail(message)


def _refused(error: AltostratusError) -> bool:
    if not isinstance(error, APIConnectionError):
        return False
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, ConnectionRefusedError):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def _is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
