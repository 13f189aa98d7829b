"""The console script ``pulumi-resource-altostratus``: the provider plugin, or one line saying
why it cannot start.

It lives outside ``altostratus.plugin`` so that what fails to import (a missing or broken
dependency of the plugin: Pulumi's SDK, gRPC, httpx, pydantic) is caught here and named, with
the command that installs what the plugin needs, instead of a traceback on the engine's output.
"""

from __future__ import annotations

import sys

INSTALL = 'python -m pip install --upgrade "altostratus"'


def main() -> None:
    try:
        from altostratus.plugin.server import main as serve
    except ImportError as error:
        print(
            f"error: the altostratus provider plugin cannot start ({error}): install it and its "
            f"dependencies in the environment of {sys.executable} with: {INSTALL}",
            file=sys.stderr,
        )
        sys.exit(1)
    serve()
