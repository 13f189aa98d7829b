"""The emulators the sections run against, and the tests' shared harness.

Sections that compare work inside this process (providers called directly, S3) use an
in-process ``Emulator``. Sections whose other side runs in another process (the provider process
over gRPC, the load generator) use ``EmulatorProcess``, so that no side shares this process's
interpreter lock with the emulator. Both have the emulator's test controls (``requests``,
``add_fault``, ``set_quota``, ...).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from types import TracebackType
from typing import Any

from pulumi.dynamic import Config, ConfigureRequest

from altostratus.emulator import Emulator, EmulatorControls

ROOT = Path(__file__).resolve().parent.parent
HARNESS = {"engine": "tests.support.engine", "scenarios": "tests.providers.scenarios"}


def test_module(name: str) -> Any:
    """A module of the tests' harness: ``engine`` (``tests/support/engine.py``) or ``scenarios``
    (``tests/providers/scenarios.py``), imported from the package ``tests`` beside this one."""
    return importlib.import_module(HARNESS[name])


def add_latency(emulator: EmulatorControls, seconds: float) -> None:
    """Delay every service request by ``seconds`` (an emulator fault that never fails)."""
    emulator.add_fault(delay_seconds=seconds, count=10**9)


def stack_config(api_url: str, api_key: str) -> dict[str, str]:
    return {"altostratus:apiKey": api_key, "altostratus:apiUrl": api_url}


def configure_providers(api_url: str, api_key: str) -> None:
    """Configure this process's providers as the engine would (settings are process-wide)."""
    from altostratus.providers.network import NetworkProvider

    config = Config(raw_config=stack_config(api_url, api_key), project_name="benchmarks")
    NetworkProvider().configure(ConfigureRequest(config))


def fast_emulator(**settings: Any) -> Emulator:
    """An in-process emulator whose resources provision before the providers' first poll."""
    options: dict[str, Any] = {"lb_ready_seconds": 0.05, "objectstore_ready_seconds": 0.05}
    return Emulator(**{**options, **settings})


class EmulatorProcess(EmulatorControls):
    """``python -m altostratus.emulator`` on free ports, in its own process."""

    def __init__(
        self, *, lb_ready_seconds: float = 0.05, objectstore_ready_seconds: float = 0.05
    ) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "altostratus.emulator",
                "--port=0",
                "--s3-port=0",
                f"--lb-ready-seconds={lb_ready_seconds}",
                f"--objectstore-ready-seconds={objectstore_ready_seconds}",
                # Only the first lines are read: request lines would fill the pipe and stall it.
                "--quiet",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        shown: dict[str, str] = {}
        while len(shown) < 3:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the emulator process stopped before it was ready")
            name, _, value = line.partition(":")
            shown[name.strip()] = value.strip()
        super().__init__(shown["API"])
        self.api_key = shown["API key"]

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)

    def __enter__(self) -> EmulatorProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
