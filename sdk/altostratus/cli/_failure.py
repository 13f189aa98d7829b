"""Turning the library's errors into the command's one-line failures."""

from __future__ import annotations

import sys

from altostratus.client.errors import AltostratusError, NotFoundError


def fail(message: str) -> int:
    """Print one line to standard error and answer the failure status."""
    print(f"altostratus: error: {message}", file=sys.stderr)
    return 1


def fail_with(error: AltostratusError) -> int:
    """One actionable line for a client error; a 404 hints at what to check."""
    message = str(error)
    if isinstance(error, NotFoundError):
        message += "; check the identifier, the region and the account the API key belongs to"
    return fail(message)
