"""Children that Ctrl-C (SIGINT) stops, however the suite was started."""

from __future__ import annotations

import sys
from collections.abc import Sequence

# Run before the command's own program: SIGINT back to its default disposition, then exec.
_RESET = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)


def ctrl_c_stops(command: Sequence[str]) -> list[str]:
    """``command``, started so that a test's SIGINT stops it as Ctrl-C would.

    A suite run as a background job of a non-interactive shell (``pytest &`` in a script) starts
    with SIGINT ignored, and an ignored signal stays ignored across ``exec``: Python then installs
    no KeyboardInterrupt handler, the child never sees the test's Ctrl-C, and the test waits. The
    command is therefore started through a small Python program that restores the signal's
    default and execs it. (A ``preexec_fn`` doing the same would run Python code between ``fork``
    and ``exec`` in a test process whose gRPC threads are running, which can leave the child
    dead before it starts.)"""
    return [sys.executable, "-c", _RESET, *command]
