"""Turning the library's errors into the command's one-line failures."""

from __future__ import annotations

import ipaddress
import sys
from urllib.parse import urlsplit

from altostratus.client.errors import AltostratusError, APIConnectionError, NotFoundError

#: A missing key, said for the command line, which has no flag for one (the library's own
#: message names its ``api_key`` argument and the stack config).
NO_KEY = (
    "no API key: set ALTOSTRATUS_API_KEY (for the local emulator: "
    "export ALTOSTRATUS_API_KEY=local-dev-key), or CLI_API_KEY, or store a session with "
    "`cli auth` (credentials.json in $CLI_CONFIG_DIR, default ~/.cli)"
)


def fail(message: str) -> int:
    """Print one line to standard error and answer the failure status."""
    print(f"altostratus: error: {message}", file=sys.stderr)
    return 1


def fail_with(error: AltostratusError, api_url: str | None = None) -> int:
    """One actionable line for a client error: a 404 hints at what to check, a connection
    refused at a loopback ``api_url`` at starting the emulator."""
    message = str(error)
    if isinstance(error, NotFoundError):
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
