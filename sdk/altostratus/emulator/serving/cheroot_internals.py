"""The one module of the package that touches cheroot's private members: the server's
connection manager (``_connections``: its ``_selector``, ``_stop_requested`` and ``_serving``)
and the worker pool's (``ThreadPool._queue``, ``_threads``, ``_spawn_worker``).

Checked against cheroot 10.0 to 11.1 (``pyproject.toml`` bounds it below 12, and CI runs the
serving tests on the newest release past that bound). The rest of ``serving`` uses cheroot's
public classes and attributes only; a test holds every other module of the package to that.
"""

from __future__ import annotations

import selectors
from typing import Any


def watch(server: Any, connection: Any) -> None:
    """Leave ``connection`` in the server's selector, offered to a worker once it can be read
    (cheroot's connection manager does so for a kept-alive connection it has served)."""
    server._connections._selector.register(
        connection.socket.fileno(), selectors.EVENT_READ, data=connection
    )


def grow(pool: Any) -> None:
    """Start one more worker when every idle one has a request waiting, up to the pool's
    ``max`` (cheroot's own ``grow`` sleeps a tenth of a second for each thread it starts)."""
    if pool.idle <= pool._queue.qsize() and len(pool._threads) < pool.max:
        pool._threads.append(pool._spawn_worker())


def ask_to_stop(server: Any) -> bool:
    """Ask the server's serving loop to end at its next turn; False when this cheroot's
    connection manager has no such request (then nothing is asked)."""
    manager: Any = getattr(server, "_connections", None)
    if not hasattr(manager, "_stop_requested"):
        return False
    manager._stop_requested = True
    return True


def serving(server: Any) -> bool:
    """Whether the server's serving loop still runs."""
    return bool(getattr(getattr(server, "_connections", None), "_serving", False))
