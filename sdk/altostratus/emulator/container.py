"""The emulator's image run by Testcontainers (``pip install 'altostratus[container]'``)::

    from altostratus.emulator.container import EmulatorContainer

    with EmulatorContainer() as emulator:  # the image "altostratus-emulator" by default
        client = SomeClient(api_key=emulator.api_key, api_url=emulator.api_url)
        boto3.client("s3", endpoint_url=emulator.s3_url, ...)

``EmulatorContainer`` has the test controls (``reset``, ``add_fault``, ``advance_clock``, ...) as
``EmulatorControls`` has them, so it stands where an ``Emulator`` does for a test (the pytest
plugin's ``--altostratus-emulator=container``). Its settings are the flags' (``time_scale=10``
is ``ALTOSTRATUS_EMULATOR_TIME_SCALE=10``); the state is kept in memory unless ``state_dir`` is
given. The ports are free ports of this machine, published as they are and listened on inside,
so the URLs the emulator reports (an object store's endpoint) are the ones this machine reaches:
on its loopback when the Docker daemon runs here, at ``DOCKER_HOST``'s address otherwise.
"""

from __future__ import annotations

import os
import socket
import time
import urllib.error
import urllib.request
from types import TracebackType
from typing import Any

from testcontainers.core.container import DockerContainer

from altostratus.emulator.control.client import EmulatorControls

#: The image's name when none is given (``docker build -t altostratus-emulator .``).
IMAGE = "altostratus-emulator"
#: Real seconds the container may take to answer its health check.
STARTUP_SECONDS = 60.0
#: Seconds Docker may take to answer one call. Creating a container on a storage driver that
#: copies the whole image (vfs, where no overlay file system is available) takes a minute or
#: more on a busy two-core machine: past the Docker client's default of 60 s.
DOCKER_SECONDS = 300
_PREFIX = "ALTOSTRATUS_EMULATOR_"


class EmulatorStartError(RuntimeError):
    """The container stopped, or did not answer its health check in time; the message ends
    with the last line of its log (a bad setting's, a refused state folder's)."""


def _local_daemon() -> bool:
    """Whether the Docker daemon runs on this machine (its socket, not ``DOCKER_HOST=tcp://``):
    then the ports are published on this machine's loopback and reached there."""
    return os.environ.get("DOCKER_HOST", "unix://").startswith("unix://")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _flags() -> set[str]:
    """The settings a container takes: the names of ``altostratus emulator``'s flags."""
    import argparse

    from altostratus.cli._emulator import configure_parser

    parser = argparse.ArgumentParser(add_help=False)
    configure_parser(parser, environ={})
    flags = vars(parser.parse_args([]))  # every flag, at its default
    return set(flags) - {"port", "s3_port", "api_key", "host"}


def _setting(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return " ".join(str(item) for item in value)
    return str(value)


class EmulatorContainer(EmulatorControls):
    """The emulator's image started by Testcontainers: ``api_url``, ``s3_url``, ``api_key``."""

    def __init__(
        self, image: str = IMAGE, *, api_key: str = "local-dev-key", **settings: Any
    ) -> None:
        super().__init__("")
        self.image = image
        self.api_key = api_key
        self.port = _free_port()
        self.s3_port = _free_port()
        self.s3_url = ""
        unknown = sorted(set(settings) - _flags())
        if unknown:  # before Docker is asked anything
            raise TypeError(f"{unknown[0]!r} is not a flag of altostratus emulator")
        self.container = DockerContainer(image, docker_client_kw={"timeout": DOCKER_SECONDS})
        environment = {"state_dir": "", **settings}  # "": in memory, unless given
        environment.update(port=self.port, s3_port=self.s3_port, api_key=api_key)
        for name, value in environment.items():
            self.container.with_env(_PREFIX + name.upper(), _setting(value))
        self.local = _local_daemon()
        for port in (self.port, self.s3_port):
            if self.local:  # on this machine's loopback only: the admin endpoints answer it
                self.container.ports[f"{port}/tcp"] = ("127.0.0.1", port)  # type: ignore[assignment]
            else:
                self.container.with_bind_ports(port, port)

    def start(self) -> EmulatorContainer:
        """Start the container and wait until it answers its health check."""
        host = "127.0.0.1"
        if not self.local:  # a daemon elsewhere: its address, in the URLs the emulator reports
            host = self.container.get_docker_client().host()
            self.container.with_env(_PREFIX + "PUBLIC_HOST", host)
        self.container.start()
        self.api_url = f"http://{host}:{self.port}"
        self.s3_url = f"http://{host}:{self.s3_port}"
        deadline = time.monotonic() + STARTUP_SECONDS
        while not self._healthy():
            self.container.get_wrapped_container().reload()
            status = self.container.get_wrapped_container().status
            if status in ("exited", "dead") or time.monotonic() > deadline:
                problem = f"is {status}" if status in ("exited", "dead") else "did not answer"
                last = self._last_log_line()
                self.stop()
                raise EmulatorStartError(f"the emulator's container {problem}: {last}")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.container.stop()

    def __enter__(self) -> EmulatorContainer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.api_url}/_emulator/health", timeout=2) as answer:
                return int(answer.status) == 200
        except (OSError, urllib.error.URLError):
            return False

    def _last_log_line(self) -> str:
        out, err = self.container.get_logs()
        lines = (out + err).decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else "(no log)"
