"""Loopback ports for tests that need a connection refused."""

from __future__ import annotations

import contextlib
import errno
import socket
from collections.abc import Iterator


@contextlib.contextmanager
def refusing_port() -> Iterator[int]:
    """A loopback port held bound and never listened on, on IPv4 and IPv6 alike: a connection
    is refused, and no other test's server can take the port meanwhile."""
    with contextlib.ExitStack() as held:
        while True:
            v4 = held.enter_context(socket.socket())
            v4.bind(("127.0.0.1", 0))
            port = int(v4.getsockname()[1])
            try:
                held.enter_context(socket.socket(socket.AF_INET6)).bind(("::1", port))
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    continue  # taken on IPv6 by something else: another port
            break  # else held on both, or no IPv6 here (which refuses [::1] by itself)
        yield port
