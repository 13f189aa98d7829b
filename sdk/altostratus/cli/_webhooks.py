"""``altostratus webhooks listen``: a local receiver that verifies and prints each delivery."""

from __future__ import annotations

import argparse
import errno
import json
import os
import socket
import sys
from typing import TYPE_CHECKING, Any

from altostratus._terminal import escaped
from altostratus.cli._emulator import port_number
from altostratus.cli._failure import fail

if TYPE_CHECKING:  # the server's modules are imported by the command, not by the program
    from email.message import Message
    from http.server import ThreadingHTTPServer

SECRET_VARIABLE = "ALTOSTRATUS_WEBHOOK_SECRET"
#: The largest delivery body the listener reads; the service's deliveries are far smaller.
MAX_BODY_BYTES = 1024 * 1024
#: Seconds a connection may take to send its request before it is dropped.
READ_TIMEOUT = 10


def register(commands: Any) -> None:
    webhooks = commands.add_parser("webhooks", help="work with webhook deliveries")
    sub = webhooks.add_subparsers(dest="webhooks_command", metavar="COMMAND")
    listen = sub.add_parser(
        "listen",
        help="receive deliveries locally, verify their signatures and print them",
        description=(
            "Receive webhook deliveries on a local port, verify each signature and print the "
            "event. Valid deliveries are answered 200, the rest 401."
        ),
    )
    listen.add_argument("--secret", help=f"the webhook's secret (default: ${SECRET_VARIABLE})")
    listen.add_argument("--host", default="127.0.0.1", help="address to listen on")
    listen.add_argument(
        "--port", type=port_number, default=8789, help="port to listen on, 1-65535 (0: any)"
    )
    listen.add_argument("--json", action="store_true", help="print each delivery as JSON")
    listen.set_defaults(run=run)
    webhooks.set_defaults(run=lambda _args: _usage(webhooks))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 1


def run(args: argparse.Namespace) -> int:
    secret = args.secret or os.environ.get(SECRET_VARIABLE)
    if not secret:
        return fail(f"no webhook secret: pass --secret or set {SECRET_VARIABLE}")
    try:
        server = make_server(args.host, args.port, secret, as_json=args.json)
    except OSError as error:
        where = f"cannot listen on {args.host}:{args.port}"
        if isinstance(error, socket.gaierror) or error.errno == errno.EADDRNOTAVAIL:
            return fail(f"{where}: unknown host; pass --host with an address of this machine")
        reason = (error.strerror or str(error)).lower()
        return fail(f"{where}: {reason}; pass another --port, or 0 for a free one")
    port = server.server_address[1]
    print(f"listening on http://{args.host}:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def make_server(host: str, port: int, secret: str, *, as_json: bool) -> ThreadingHTTPServer:
    """A threaded HTTP server whose every POST is verified with ``secret`` and printed.

    Each request's line is printed before it is answered, so the lines come out in the order
    the sender saw its answers, whatever the threads' timing."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from altostratus.webhooks import InvalidDeliveryError, parse_delivery

    class Receiver(BaseHTTPRequestHandler):
        timeout = READ_TIMEOUT

        def do_POST(self) -> None:
            status, length, problem = _content_length(self.headers)
            if problem:
                self.close_connection = True
                _print({"verified": False, "reason": f"malformed request: {problem}"}, as_json)
                self._answer(status)
                return
            if length > MAX_BODY_BYTES:
                self.close_connection = True
                _print(
                    {"verified": False, "reason": f"body of {length} bytes is too large"}, as_json
                )
                self._answer(413)
                return
            body = self.rfile.read(length)
            try:
                delivery = parse_delivery(body, dict(self.headers.items()), secret=secret)
            except InvalidDeliveryError as error:
                _print({"verified": False, "reason": str(error)}, as_json)
                self._answer(401)
                return
            _print(
                {
                    "verified": True,
                    "event": delivery.event,
                    "resource_id": delivery.resource_id,
                    "event_id": delivery.event_id,
                },
                as_json,
            )
            self._answer(200)

        def _answer(self, status: int) -> None:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return ThreadingHTTPServer((host, port), Receiver)


def _content_length(headers: Message) -> tuple[int, int, str]:
    """The body's length from the request's headers: ``(0, length, "")``, or the status to
    answer (411, 400) and what is wrong."""
    values = headers.get_all("Content-Length") or []
    if headers.get("Transfer-Encoding"):
        return 411, 0, "chunked bodies are not read; send a Content-Length"
    if not values:
        return 411, 0, "no Content-Length"
    if len(set(values)) > 1:
        return 400, 0, "conflicting Content-Length headers"
    text = values[0].strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        return 400, 0, f"Content-Length {escaped(text)} is not a byte count"
    return 0, int(text), ""


def _print(record: dict[str, Any], as_json: bool) -> None:
    if as_json:
        line = json.dumps(record, sort_keys=True)  # escapes every control character
    elif record["verified"]:
        line = f"verified  {escaped(record['event'])}  resource {escaped(record['resource_id'])}"
        line += f"  event {escaped(record['event_id'])}" if record["event_id"] else ""
    else:
        line = f"REFUSED   {escaped(record['reason'])}"
    print(line, file=sys.stdout, flush=True)
