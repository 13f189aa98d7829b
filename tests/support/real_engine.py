"""Where the tests find the real Pulumi engine: ``tools/engine/build``'s folder, or PATH.

``tools/engine/build`` puts the CLI, the Python language host and the SDK's launcher scripts in
``$ALTOSTRATUS_ENGINE_DIR`` (by default ``~/.cache/altostratus/pulumi-<version>``) ``/bin``;
``tests/conftest.py`` puts that folder first on PATH, so the engine's own plugin search, the
Automation API and ``shutil.which("pulumi")`` all find the same binaries.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pinned_version() -> str:
    """The Pulumi version ``tools/engine/go.mod`` pins, without the ``v``."""
    text = (ROOT / "tools" / "engine" / "go.mod").read_text()
    found = re.search(r"github\.com/pulumi/pulumi/pkg/v3 v(\S+)", text)
    assert found, "tools/engine/go.mod pins no github.com/pulumi/pulumi/pkg/v3"
    return found[1]


def built_engine() -> Path | None:
    """The folder of the built ``pulumi`` and its plugins, if ``tools/engine/build`` has run."""
    default = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "altostratus"
    folder = Path(
        os.environ.get("ALTOSTRATUS_ENGINE_DIR") or default / f"pulumi-{pinned_version()}"
    )
    binaries = folder / "bin"
    return binaries if (binaries / "pulumi").is_file() else None


def engine_missing() -> str | None:
    """Why the real engine cannot run here, or None when ``pulumi`` is on PATH."""
    if shutil.which("pulumi") is not None:
        return None
    return "the pulumi CLI is neither built (tools/engine/build) nor on PATH"
