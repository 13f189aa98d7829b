"""Pulumi resources, an API client and a local emulator for the service's API."""

from __future__ import annotations

from altostratus._version import __version__

__all__ = ["__version__"]
