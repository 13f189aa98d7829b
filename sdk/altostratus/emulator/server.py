"""Serving a WSGI application on a background thread."""

from __future__ import annotations

import logging
import threading
from typing import Any

from moto.moto_server.werkzeug_app import MotoRequestHandler
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

logger = logging.getLogger("altostratus.emulator.http")


class APIRequestHandler(WSGIRequestHandler):
    """Request lines go to the ``altostratus.emulator.http`` logger at debug level.

    Werkzeug's server closes the connection after every answer, so each request pays a new
    connection (about a millisecond on loopback); ``docs/benchmarks.md`` shows the cost.
    """

    def log(self, type: str, message: str, *args: Any) -> None:
        logger.debug("%s " + message, self.address_string(), *args)


class S3RequestHandler(MotoRequestHandler):
    """moto's handler, which keeps headers with underscores (S3 metadata names may hold them,
    and they are signed); request lines go to the debug logger."""

    def log(self, type: str, message: str, *args: Any) -> None:
        logger.debug("%s " + message, self.address_string(), *args)


class BackgroundServer:
    """A threaded Werkzeug server on ``host:port`` (port 0 picks a free one) in a daemon thread."""

    def __init__(
        self, host: str, port: int, app: Any, name: str, handler: type[WSGIRequestHandler]
    ) -> None:
        self._server: BaseWSGIServer = make_server(
            host, port, app, threaded=True, request_handler=handler
        )
        self._thread = threading.Thread(target=self._server.serve_forever, name=name, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_port)

    def url(self, host: str) -> str:
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
