"""The runner's provider process: ``python -m pulumi.dynamic``, as the engine starts it, once
the library's providers and API client are imported.

Under the engine the process imports them on the path of the first resource: the first call
unpickles a provider (the eight providers' modules) and the first create makes a client (httpx
and the client's models, and the TLS roots it loads), about 0.15 s before the first request
leaves. Here they are imported before the process announces its port, while the runner's own
process is still importing and starting the emulator. Nothing else differs: the same module
serves the same calls.

Unlike the engine's, this process ends with the process that started it (see ``launch``), so
that a test session killed midway leaves no provider process behind.
"""

from __future__ import annotations

import importlib
import os
import runpy
import sys
import threading

# httpx imports its command-line interface, and with it rich, click and pygments, whenever they
# are installed (about 30 ms); this process never runs it. A None entry makes that import fail,
# which httpx expects and answers with a stand-in.
sys.modules["httpx._main"] = None  # type: ignore[assignment]

from altostratus._version import package_version  # noqa: E402


def _end_with_parent() -> None:
    """End when the standard input (a pipe the runner's process holds) closes: the runner ended
    without stopping this process (killed, say)."""
    while sys.stdin.buffer.read(4096):
        pass
    os._exit(0)


threading.Thread(target=_end_with_parent, name="end-with-parent", daemon=True).start()

#: Unpickled by the first call, and made by the first call to the API.
PRELOADED = ("altostratus.providers", "altostratus.client._client")

for module in PRELOADED:
    importlib.import_module(module)
package_version()  # read for the client's User-Agent
runpy.run_module("pulumi.dynamic", run_name="__main__", alter_sys=True)
