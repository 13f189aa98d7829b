"""The runner's provider processes, one per provider configuration, shared by stacks."""

from __future__ import annotations

import subprocess
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from altostratus.testing._properties import Properties, reveal
from altostratus.testing.runner import launch
from altostratus.testing.runner.process import PluginProcess, ProviderProcess

PROVIDER_KEYS = "altostratus:"
"""The namespace of the configuration the provider reads."""

PROCESS_LIMIT = 4
"""Provider processes a ``ProviderProcesses`` keeps running at most (about 65 MiB each)."""


class ProviderProcesses:
    """Provider processes by the provider's configuration, started on first use and shared by
    stacks: the dynamic provider's (``python -m pulumi.dynamic``) and the provider plugin's (one
    per provider instance, keyed by its inputs).

    The provider process configures itself once, so each distinct configuration of the provider
    (the ``altostratus:*`` keys, all it reads) gets its own process, as the engine loads a
    provider plugin per provider configuration; stacks whose configurations differ only in other
    keys share one. At most ``limit`` run at once: when another is needed, the least recently
    used one that no operation is using is stopped (a later operation that needs it starts it
    again).
    """

    def __init__(self, limit: int = PROCESS_LIMIT) -> None:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        self.limit = limit
        self._lock = threading.Lock()
        # Least recently used first.
        self._processes: OrderedDict[tuple[tuple[str, str], ...], ProviderProcess] = OrderedDict()
        self._in_use: Counter[ProviderProcess] = Counter()
        self._spare: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> int:
        """How many provider processes run (or start) now."""
        with self._lock:
            return len(self._processes)

    def warm(self, started: subprocess.Popen[bytes] | None = None) -> None:
        """Start a provider process now (or take ``started``, one of ``ProviderProcess.launch``'s
        command), for the first configuration ``get`` meets: its interpreter and imports run
        while the caller starts the emulator."""
        with self._lock:
            if self._spare is None:
                self._spare = started or ProviderProcess.launch()

    def get(self, config: Properties) -> ProviderProcess:
        """The process of the provider configuration in ``config`` (started if need be)."""
        return self._take(config, pin=False)

    @contextmanager
    def using(self, config: Properties) -> Iterator[ProviderProcess]:
        """``get``, the process kept from eviction while the block runs (an operation)."""
        process = self.pinned(config)
        try:
            yield process
        finally:
            self.release(process)

    def pinned(self, config: Properties, *, plugin: bool = False) -> ProviderProcess:
        """The process of ``config`` (with ``plugin``, a provider plugin's configured with the
        provider's inputs ``config``), kept from eviction until ``release``."""
        return self._take(config, pin=True, plugin=plugin)

    def release(self, process: ProviderProcess) -> None:
        """A process of ``pinned`` no longer in use by that caller."""
        with self._lock:
            self._in_use[process] -= 1
            if self._in_use[process] <= 0:
                del self._in_use[process]
            evicted = self._evict()
        for old in evicted:
            old.close()

    def _take(self, config: Properties, *, pin: bool, plugin: bool = False) -> ProviderProcess:
        if plugin:
            # An instance of the plugin reads all of its inputs.
            plain = {str(k): v for k, v in reveal(config).items()}
        else:
            plain = {k: v for k, v in reveal(config).items() if str(k).startswith(PROVIDER_KEYS)}
        key: tuple[tuple[str, str], ...] = (("", "plugin" if plugin else "dynamic"),)
        key += tuple(sorted((str(k), str(v)) for k, v in plain.items()))
        evicted: list[ProviderProcess] = []
        with self._lock:
            process = self._processes.get(key)
            if process is not None:
                self._processes.move_to_end(key)
            elif plugin:
                process = self._processes[key] = PluginProcess(plain)
                evicted = self._evict()
            else:
                spare, self._spare = self._spare, None
                process = self._processes[key] = ProviderProcess(plain, started=spare)
                evicted = self._evict()
            if pin:
                self._in_use[process] += 1
        for old in evicted:
            old.close()
        return process

    def _evict(self) -> list[ProviderProcess]:
        """Drop the least recently used idle processes beyond the limit (under the lock); the
        caller closes them."""
        evicted: list[ProviderProcess] = []
        for key, process in list(self._processes.items()):
            if len(self._processes) <= self.limit:
                break
            if self._in_use[process] == 0 and key != next(reversed(self._processes)):
                del self._processes[key]
                evicted.append(process)
        return evicted

    def close(self) -> None:
        with self._lock:
            processes = list(self._processes.values())
            self._processes.clear()
            spare, self._spare = self._spare, None
        for process in processes:
            process.close()
        if spare is not None:
            launch.stop(spare)
