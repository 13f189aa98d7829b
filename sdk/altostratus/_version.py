"""The package's version, read from its installed metadata: pyproject.toml's ``version`` is the
one place it is written."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("altostratus")
except PackageNotFoundError:  # a source tree on sys.path that was never installed
    __version__ = "0+unknown"
