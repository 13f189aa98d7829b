"""Starting the runner's provider process, from a module that imports neither Pulumi nor gRPC:
the command line and the pytest plugin start the process before they import the runner, so that
its interpreter and imports run meanwhile, on the other core."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from typing import IO

#: ``python -m pulumi.dynamic`` once the library's providers and client are imported
#: (see ``provider_main``).
COMMAND: tuple[str, ...] = (sys.executable, "-m", "altostratus.testing.runner.provider_main")

#: Where this process serves the engine's ``Log`` call to its provider processes (see
#: ``engine_log``): passed as their first argument, as the engine passes its own address.
ENGINE_ADDRESS = f"unix:{tempfile.gettempdir()}/altostratus-engine-{os.getpid()}.sock"


def launch(
    stderr: IO[bytes] | None = None, command: tuple[str, ...] = COMMAND
) -> subprocess.Popen[bytes]:
    """The provider's process, started and not yet waited for; it prints its port when ready.

    Its standard input is a pipe this process holds: the process of ``COMMAND`` ends when the
    pipe closes, so it does not outlive this one, even killed. Its first argument is
    ``ENGINE_ADDRESS``.
    """
    return subprocess.Popen(
        [*command, ENGINE_ADDRESS],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr if stderr is not None else subprocess.DEVNULL,
    )


def stop(process: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """End a process of ``launch``, wait for it and close its pipes."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            pipe.close()
