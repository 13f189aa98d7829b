"""The package's version and requirements, read from its installed metadata: pyproject.toml is
the one place they are written.

They are read when first asked for, not on import: ``importlib.metadata`` costs tens of
milliseconds to import, which every process (a program, the provider process, the emulator, the
command line) would pay whether or not it ever shows the version.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    __version__: str


@functools.cache
def package_version() -> str:
    """The installed version, or ``0+unknown`` for a source tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("altostratus")
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    if name == "__version__":
        return package_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def requirement(project: str) -> str | None:
    """The package's requirement on `project` as declared (``pulumi<4,>=3.260``), or None."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        declared = requires("altostratus") or []
    except PackageNotFoundError:
        return None
    for line in declared:
        name = re.match(r"[A-Za-z0-9._-]+", line)
        if name and name[0].lower() == project and ";" not in line:
            return line.strip()
    return None
