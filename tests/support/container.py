"""The emulator's image the tests start: ``tools/container/check`` builds it as
``altostratus-emulator:check`` (``ALTOSTRATUS_TEST_IMAGE`` names another)."""

from __future__ import annotations

import os
import shutil
import subprocess

IMAGE = os.environ.get("ALTOSTRATUS_TEST_IMAGE", "altostratus-emulator:check")


def docker_missing() -> str | None:
    """Why the image cannot run here, or None."""
    if shutil.which("docker") is None:
        return "docker is not installed"
    info = subprocess.run(["docker", "info"], capture_output=True, check=False)
    if info.returncode != 0:
        return "no Docker daemon runs here"
    found = subprocess.run(["docker", "image", "inspect", IMAGE], capture_output=True, check=False)
    if found.returncode != 0:
        return f"the image {IMAGE} is not built (tools/container/check builds it)"
    return None
