"""Where generated values come from: record ids, bucket name suffixes, access keys, secrets.

By default they are random (``uuid4``, the ``secrets`` module). An emulator given an id seed
(``Emulator(id_seed=N)``, ``altostratus emulator --id-seed N``, ``ALTOSTRATUS_EMULATOR_ID_SEED``)
draws them from one pseudo-random sequence of that seed instead, started again by every reset:
the same requests in the same order get the same ids, keys and secrets, run after run. Creates
sent at once take their values in the order the emulator serves them.

The state's lock (``StateLock``) is what connects the two: every change of the state runs with it
held, and while a thread holds it the functions below draw from that state's ``IdSource``.
"""

from __future__ import annotations

import random
import secrets
import threading
import uuid
from collections.abc import Sequence
from contextvars import ContextVar, Token
from types import TracebackType

#: The environment variable that gives the emulator command and the pytest plugin an id seed.
ID_SEED_VARIABLE = "ALTOSTRATUS_EMULATOR_ID_SEED"


class IdSource:
    """Random values, or with ``seed`` a deterministic sequence of them (see the module)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._lock = threading.Lock()
        self._random: random.Random | None = None
        self.restart()

    def restart(self) -> None:
        """Start the sequence again (a reset of the emulator); no effect without a seed."""
        with self._lock:
            self._random = None if self.seed is None else random.Random(self.seed)

    def uuid(self) -> str:
        with self._lock:
            if self._random is None:
                return str(uuid.uuid4())
            return str(uuid.UUID(int=self._random.getrandbits(128), version=4))

    def text(self, alphabet: str, length: int) -> str:
        with self._lock:
            pick = secrets.choice if self._random is None else self._random.choice
            return "".join(pick(alphabet) for _ in range(length))

    def choice(self, options: Sequence[str]) -> str:
        with self._lock:
            return secrets.choice(options) if self._random is None else self._random.choice(options)

    def hex(self, nbytes: int) -> str:
        with self._lock:
            if self._random is None:
                return secrets.token_hex(nbytes)
            return self._random.randbytes(nbytes).hex()


_RANDOM = IdSource()
_current: ContextVar[IdSource] = ContextVar("id_source", default=_RANDOM)


def new_uuid() -> str:
    return _current.get().uuid()


def random_text(alphabet: str, length: int) -> str:
    return _current.get().text(alphabet, length)


def random_hex(nbytes: int) -> str:
    return _current.get().hex(nbytes)


class StateLock:
    """The state's one re-entrant lock; while a thread holds it, ids come from ``ids``."""

    def __init__(self, ids: IdSource) -> None:
        self.ids = ids
        self._lock = threading.RLock()
        self._held = threading.local()

    def __enter__(self) -> bool:
        self._lock.acquire()
        tokens: list[Token[IdSource]] = self._held.__dict__.setdefault("tokens", [])
        tokens.append(_current.set(self.ids))
        return True

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        _current.reset(self._held.tokens.pop())
        self._lock.release()
