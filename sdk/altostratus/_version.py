"""The package's version and requirements, read from its installed metadata: pyproject.toml is
the one place they are written."""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, requires, version

try:
    __version__ = version("altostratus")
except PackageNotFoundError:  # a source tree on sys.path that was never installed
    __version__ = "0+unknown"


def requirement(project: str) -> str | None:
    """The package's requirement on `project` as declared (``pulumi<4,>=3.260``), or None."""
    try:
        declared = requires("altostratus") or []
    except PackageNotFoundError:
        return None
    for line in declared:
        name = re.match(r"[A-Za-z0-9._-]+", line)
        if name and name[0].lower() == project and ";" not in line:
            return line.strip()
    return None
