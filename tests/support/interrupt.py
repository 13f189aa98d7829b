"""Children that Ctrl-C (SIGINT) stops, however the suite was started."""

from __future__ import annotations

import signal


def default_ctrl_c() -> None:
    """``preexec_fn`` of a child a test stops with SIGINT: the signal's default disposition.

    A suite run as a background job of a non-interactive shell (``pytest &`` in a script) starts
    with SIGINT ignored, and an ignored signal stays ignored across ``exec``: Python then installs
    no KeyboardInterrupt handler, the child never sees the test's Ctrl-C, and the test waits."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
