"""The provider process ends with its engine.

The engine starts ``python -m pulumi.dynamic`` (through a shell script, which stays its parent)
and reads the port it prints from its standard output, a pipe whose reading end only the engine
holds. A killed engine (``kill -9`` of ``pulumi up``) never stops its provider processes: each
would go on serving nobody, holding its memory, until the machine restarts. So in the provider
process a thread waits, without polling, for that pipe to lose its reader (``poll`` reports
``POLLERR`` on a pipe's writing end once no process can read it) and ends the process then.
Under ``altostratus.testing``'s runner the same holds: the runner holds the reading end.

It acts only in the provider process (``_threads.in_provider_process``), once, and only when
the standard output is a pipe; it starts with the process's first call, where the SDK
configures the provider.
"""

from __future__ import annotations

import os
import select
import stat
import sys
import threading

from altostratus.providers._threads import in_provider_process

_started = threading.Lock()
_watching = False


def end_with_engine() -> None:
    """In the provider process: end it as soon as its engine has gone (see the module)."""
    global _watching
    if not in_provider_process():
        return
    with _started:
        if _watching:
            return
        _watching = True
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else 1
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return
    except (OSError, ValueError):
        return
    threading.Thread(target=_wait_for_no_reader, args=(fd,), name="end-with-engine",
                     daemon=True).start()  # fmt: skip


def _wait_for_no_reader(fd: int) -> None:
    waiting = select.poll()
    waiting.register(fd, 0)  # no event asked: only POLLERR and POLLHUP are reported
    while True:
        for _, events in waiting.poll():
            if events & (select.POLLERR | select.POLLHUP | select.POLLNVAL):
                os._exit(0)
