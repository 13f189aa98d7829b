from __future__ import annotations

from altostratus.client.models._base import ResponseModel


class Region(ResponseModel):
    """A region of the service; ``code`` identifies it (``LON1``), as ``region=`` takes it."""

    code: str
    name: str | None = None
    """Its display name: ``London 1``."""
    country: str | None = None
    """ISO 3166 country code: ``GB``."""
    default: bool | None = None
    """Whether this is the account's default region."""
