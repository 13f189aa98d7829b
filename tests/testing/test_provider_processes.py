"""Provider processes: none outlives its engine, and the runner's are bounded."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys

from pulumi.dynamic.dynamic import serialize_provider

import altostratus as alto
from altostratus.emulator import Emulator
from altostratus.providers.network import NetworkProvider
from altostratus.testing import ProviderProcesses, Stack
from altostratus.testing.runner import PROVIDER_KEY, ProviderProcess


def test_a_provider_process_ends_once_its_engine_has_gone(emulator: Emulator) -> None:
    # As the engine starts it: through a shell, which stays its parent, the engine holding the
    # reading end of its standard output alone.
    started = subprocess.Popen(
        ["/bin/sh", "-c", f'"{sys.executable}" -u -m pulumi.dynamic'],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own group, which the test stops whatever happens
    )
    config = {"altostratus:apiUrl": emulator.api_url, "altostratus:apiKey": emulator.api_key}
    process = ProviderProcess(config, started=started)
    try:
        news = {"label": "app", "cidr_v4": "10.90.0.0/24", "__name_prefix": "app",
                PROVIDER_KEY: serialize_provider(NetworkProvider())}  # fmt: skip
        process.check("urn:pulumi:test::test::altostratus:Network::app", {}, news)
        assert started.poll() is None
        assert started.stdout is not None
        started.stdout.close()  # the engine is gone: nobody reads the process's output
        assert started.wait(timeout=10) == 0
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(started.pid, signal.SIGKILL)
        process.close()


def network() -> None:
    alto.Network("app", cidr_v4="10.91.0.0/24")


def test_a_session_keeps_at_most_its_limit_of_provider_processes(
    fresh_emulator: Emulator,
) -> None:
    processes = ProviderProcesses(limit=2)
    started: list[subprocess.Popen[bytes]] = []
    try:
        for timeout in range(5, 10):
            # Five provider configurations: each needs its own process, the limit holds.
            config = {"altostratus:waitTimeoutSeconds": str(timeout), "label": "x"}
            with Stack(network, emulator=fresh_emulator, config=config,
                       processes=processes) as stack:  # fmt: skip
                stack.up()
                started += [p.process for p in processes._processes.values()]
                assert processes.running <= 2
                stack.destroy()
                assert processes.running <= 2
        # Configurations differing only outside the provider's keys share its process.
        for label in ("a", "b", "c"):
            config = {"altostratus:waitTimeoutSeconds": "9", "label": label}
            with Stack(network, emulator=fresh_emulator, config=config,
                       processes=processes) as stack:  # fmt: skip
                stack.preview()
        assert processes.running == 2
        alive = {id(p.process) for p in processes._processes.values()}
        ended = [p for p in started if id(p) not in alive]
        assert len({id(p) for p in ended}) == 3
        assert all(p.poll() is not None for p in ended)  # evicted processes are stopped
    finally:
        processes.close()
    assert all(p.poll() is not None for p in started)


def test_a_process_in_use_is_not_evicted(fresh_emulator: Emulator) -> None:
    processes = ProviderProcesses(limit=1)
    first = {"altostratus:apiUrl": fresh_emulator.api_url, "altostratus:apiKey": "a"}
    second = {**first, "altostratus:apiKey": "b"}
    try:
        with processes.using(first) as busy:
            other = processes.get(second)
            assert processes.running == 2 and busy.process.poll() is None
        assert processes.running == 1
        assert busy.process.wait(timeout=10) is not None  # evicted once idle
        assert processes.get(second) is other
    finally:
        processes.close()
