"""A local emulator of the service's whole API, with S3 and webhook deliveries.

``Emulator`` starts the API and the S3 server on background threads (free ports by default)::

    with Emulator() as emulator:
        client = SomeClient(api_key=emulator.api_key, api_url=emulator.api_url)

Time-dependent behaviour (provisioning, webhook retries) follows ``emulator.clock``, which runs
``time_scale`` emulated seconds per real second and can be advanced through
``POST /_emulator/clock``. ``bytes_per_gb`` is a test knob: it sets how many bytes a gigabyte of
an object store's ``max_size_gb`` holds, so small uploads can reach the limit. Webhook deliveries
go only to loopback receivers unless ``remote_deliveries`` is true: a local emulator makes no
traffic beyond the machine by surprise.
"""

from __future__ import annotations

from types import TracebackType

from altostratus.emulator.app import EmulatorApp
from altostratus.emulator.clock import Clock
from altostratus.emulator.s3 import S3Service
from altostratus.emulator.server import BackgroundServer
from altostratus.emulator.state import Settings, State
from altostratus.emulator.webhooks import WebhookDispatcher

__all__ = ["Clock", "Emulator"]


class Emulator:
    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        s3_port: int = 0,
        api_key: str = "local-dev-key",
        time_scale: float = 1.0,
        lb_ready_seconds: float = 2.0,
        objectstore_ready_seconds: float = 1.0,
        rate_limit: float | None = None,
        bytes_per_gb: int = 1024**3,
        remote_deliveries: bool = False,
    ) -> None:
        if not api_key:
            raise ValueError("api_key must not be empty")
        for name, number in (("port", port), ("s3_port", s3_port)):
            if not 0 <= number <= 65535:
                raise ValueError(f"{name} must be from 1 to 65535, or 0 for a free one")
        self.host = host
        self.port = port
        self.s3_port = s3_port
        self.api_key = api_key
        self.clock = Clock(time_scale)
        settings = Settings(
            lb_ready_seconds=lb_ready_seconds,
            objectstore_ready_seconds=objectstore_ready_seconds,
            bytes_per_gb=bytes_per_gb,
        )
        self.state = State(self.clock, api_key=api_key, settings=settings)
        self.s3 = S3Service(self.state)
        self.state.buckets = self.s3
        self.dispatcher = WebhookDispatcher(
            self.state, self.clock, remote_deliveries=remote_deliveries
        )
        self.app = EmulatorApp(self.state, self.dispatcher, rate_limit=rate_limit)
        self.api_url = ""
        self.s3_url = ""
        self._servers: list[BackgroundServer] = []

    def start(self) -> Emulator:
        s3_server = BackgroundServer(self.host, self.s3_port, self.s3, "S3")
        try:
            api_server = BackgroundServer(self.host, self.port, self.app, "API")
        except BaseException:
            s3_server.stop()
            raise
        self.s3_url = s3_server.url(self.host)
        self.api_url = api_server.url(self.host)
        self.state.settings.s3_url = self.s3_url
        self._servers = [s3_server, api_server]
        self.dispatcher.refuse_ports({s3_server.port, api_server.port})
        self.dispatcher.start()
        for server in self._servers:
            server.start()
        return self

    def stop(self) -> None:
        for server in self._servers:
            server.stop()
        self._servers = []
        self.dispatcher.stop()

    def reset(self) -> None:
        """The same as ``POST /_emulator/reset``."""
        self.app.reset()

    def __enter__(self) -> Emulator:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
