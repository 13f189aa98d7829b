"""``python -m altostratus.emulator``: serve the emulator until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Sequence
from types import FrameType
from typing import Any

from altostratus.emulator import Emulator


def _positive(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be a positive number")
    return value


def _not_negative(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8787, help="API port (0 picks a free one)")
    parser.add_argument("--s3-port", type=int, default=8788, help="S3 port (0 picks a free one)")
    parser.add_argument("--api-key", default="local-dev-key", help="the default account's key")
    parser.add_argument(
        "--time-scale",
        type=_positive,
        default=1.0,
        help="emulated seconds per real second",
    )
    parser.add_argument(
        "--lb-ready-seconds",
        type=_not_negative,
        default=2.0,
        help="emulated seconds until a load balancer is available",
    )
    parser.add_argument(
        "--objectstore-ready-seconds",
        type=_not_negative,
        default=1.0,
        help="emulated seconds until an object store is ready",
    )
    parser.add_argument(
        "--rate-limit",
        type=_positive,
        default=None,
        help="requests per second per key (off by default)",
    )
    parser.add_argument(
        "--remote-deliveries",
        action="store_true",
        help="deliver webhooks to any host, not only to loopback receivers",
    )


def run(args: argparse.Namespace) -> int:
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    try:
        previous = signal.signal(signal.SIGTERM, on_signal)
    except ValueError:  # not the main thread: only Ctrl-C (or the caller) stops the server
        previous = None
    emulator = Emulator(
        host=args.host,
        port=args.port,
        s3_port=args.s3_port,
        api_key=args.api_key,
        time_scale=args.time_scale,
        lb_ready_seconds=args.lb_ready_seconds,
        objectstore_ready_seconds=args.objectstore_ready_seconds,
        rate_limit=args.rate_limit,
        remote_deliveries=args.remote_deliveries,
    )
    try:
        emulator.start()
    except OSError as error:
        print(f"error: cannot start the emulator: {error}", file=sys.stderr)
        _restore(previous)
        return 1
    print(f"API:     {emulator.api_url}")
    print(f"S3:      {emulator.s3_url}")
    print(f"API key: {emulator.api_key}", flush=True)
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        emulator.stop()
        _restore(previous)
    return 0


def _restore(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m altostratus.emulator",
        description="A local emulator of the service's API, with S3 and webhook deliveries.",
    )
    configure_parser(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
