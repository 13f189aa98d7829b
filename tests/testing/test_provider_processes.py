"""Provider processes: none outlives its engine, and the runner's are bounded."""

from __future__ import annotations

import subprocess
import sys

from pulumi.dynamic.dynamic import serialize_provider

from altostratus.emulator import Emulator
from altostratus.providers.network import NetworkProvider
from altostratus.testing._process import PROVIDER_KEY, ProviderProcess


def test_a_provider_process_ends_once_its_engine_has_gone(emulator: Emulator) -> None:
    # As the engine starts it: through a shell, which stays its parent, the engine holding the
    # reading end of its standard output alone.
    started = subprocess.Popen(
        ["/bin/sh", "-c", f'"{sys.executable}" -u -m pulumi.dynamic'],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
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
        process.close()
