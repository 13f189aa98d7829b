"""``altostratus plugin install``: the provider plugin where the Pulumi engine looks for it.

The package installs the plugin as the console script ``pulumi-resource-altostratus``, which the
engine finds on PATH (with a warning naming it) when the environment's ``bin/`` is on PATH. A
program run from a project whose Pulumi.yaml names a virtualenv is not: the engine looks in its
plugin folder, ``$PULUMI_HOME/plugins`` (default ``~/.pulumi/plugins``), under the version the
program asks for, the package's. This command writes the plugin there, as a script that runs it
on this interpreter, so the engine finds the installed package's plugin without PATH.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from altostratus._version import package_version
from altostratus.cli._failure import fail

EXECUTABLE = "pulumi-resource-altostratus"


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "plugin",
        help="install the Pulumi provider plugin in Pulumi's plugin folder",
        description="Manage the provider plugin pulumi-resource-altostratus.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    install = actions.add_parser(
        "install",
        help="write the plugin into Pulumi's plugin folder, run by this interpreter",
        description=(
            "Write the provider plugin of this installed package into $PULUMI_HOME/plugins "
            "(default ~/.pulumi/plugins) as the engine's resource-altostratus-v<version>, the "
            "package's version, run by this Python interpreter."
        ),
    )
    install.set_defaults(run=_install)
    parser.set_defaults(run=lambda args: fail("give an action: plugin install"))


def plugin_folder() -> Path:
    """Where the engine looks for the package's plugin version."""
    home = os.environ.get("PULUMI_HOME") or str(Path.home() / ".pulumi")
    return Path(home) / "plugins" / f"resource-altostratus-v{package_version()}"


def _install(args: argparse.Namespace) -> int:
    folder = plugin_folder()
    script = folder / EXECUTABLE
    text = (
        "#!/bin/sh\n"
        "# The altostratus provider plugin, run by the interpreter it is installed for.\n"
        f'exec {shlex.quote(sys.executable)} -m altostratus._plugin_launch "$@"\n'
    )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        script.write_text(text, encoding="utf-8")
        script.chmod(0o755)
        # A folder left half-installed by the engine is skipped by it: this one is whole.
        Path(f"{folder}.partial").unlink(missing_ok=True)
    except OSError as error:
        return fail(f"could not write the plugin into {folder}: {error.strerror or error}")
    print(f"installed the altostratus provider plugin {package_version()} at {script}")
    return 0
