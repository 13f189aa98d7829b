"""Running ``cli`` in its own process at a pseudo-terminal, to answer its prompts as a user
types them."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from types import TracebackType

#: How long to wait for a prompt or the end before the test is failed; never reached when the
#: command behaves (the answers are read as they come, not after a fixed wait).
PATIENCE = 60.0


class Terminal:
    def __init__(self, argv: Sequence[str], environ: Mapping[str, str]) -> None:
        self.argv = list(argv)
        self.environ = dict(environ)
        self.seen = ""
        self.status: int | None = None

    def __enter__(self) -> Terminal:
        self.master, slave = pty.openpty()
        code = "from altostratus.cli import cli_entry; cli_entry()"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, *self.argv],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=self.environ,
            close_fds=True,
            start_new_session=True,
        )
        os.close(slave)
        return self

    def _read(self) -> bool:
        ready, _, _ = select.select([self.master], [], [], PATIENCE)
        if not ready:
            raise AssertionError(f"the command said nothing more; so far: {self.seen!r}")
        try:
            chunk = os.read(self.master, 4096)
        except OSError:  # the other side closed: the command ended
            return False
        if not chunk:
            return False
        self.seen += chunk.decode(errors="replace")
        return True

    def expect(self, text: str) -> None:
        while text not in self.seen:
            if not self._read():
                raise AssertionError(f"the command ended without {text!r}: {self.seen!r}")

    def send(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def interrupt(self) -> None:
        """Ctrl-C."""
        self.process.send_signal(signal.SIGINT)

    def finish(self) -> str:
        while self._read():
            pass
        self.status = self.process.wait(timeout=PATIENCE)
        return self.seen

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
