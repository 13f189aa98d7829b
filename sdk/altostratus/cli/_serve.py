"""``altostratus emulator`` (and ``python -m altostratus.emulator``): serve until Ctrl-C or
SIGTERM. Imported when the command runs, as it needs the ``emulator`` extra; its flags are
declared in ``_emulator``."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from types import FrameType

from altostratus.cli._failure import fail
from altostratus.emulator import Emulator, SeedError, StateFileError
from altostratus.emulator.serving.request_lines import RequestPrinter
from altostratus.emulator.serving.server import ListenError

_FLAGS = {"API": "--port", "S3": "--s3-port"}


def run(args: argparse.Namespace) -> int:
    """Serve until SIGTERM or Ctrl-C, then stop both servers (answers in progress finish)."""
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    try:
        previous = signal.signal(signal.SIGTERM, on_signal)
    except ValueError:  # not the main thread: only Ctrl-C (or the caller) stops the server
        previous = None
    try:
        return _serve(args, stop)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _serve(args: argparse.Namespace, stop: threading.Event) -> int:
    if args.id_seed is not None and args.state_dir is not None:
        return fail(
            "--id-seed cannot go with --state-dir: a restarted emulator would hand out the "
            "saved records' ids again"
        )
    try:
        emulator = _emulator(args)
    except (StateFileError, SeedError) as error:
        return fail(str(error))
    except ValueError as error:  # --seed with --state-dir
        return fail(f"{error}: --seed or --state-dir")
    try:
        emulator.start()
    except ListenError as error:
        emulator.stop()
        hint = "pass --host with an address of this machine"
        if not error.bad_host:
            hint = f"pass another {_FLAGS.get(error.name, '--port')}, or 0 for a free one"
        return fail(f"{error}; {hint}")
    try:
        header = [
            f"API:     {emulator.api_url}",
            f"S3:      {emulator.s3_url}",
            f"API key: {emulator.api_key}",
        ]
        if emulator.folder is not None:
            header.append(f"State:   {emulator.folder.path}")
        # Each request prints its line from before the header shows how to reach the emulator
        # (whoever reads the header may send one at once), and after the header.
        printer = RequestPrinter(sys.stdout, args.log_format)
        if not args.quiet:
            emulator.app.on_request = printer
        printer.write(*header)
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        emulator.stop()
    return 0


def _emulator(args: argparse.Namespace) -> Emulator:
    return Emulator(
        host=args.host,
        port=args.port,
        s3_port=args.s3_port,
        api_key=args.api_key,
        time_scale=args.time_scale,
        lb_ready_seconds=args.lb_ready_seconds,
        objectstore_ready_seconds=args.objectstore_ready_seconds,
        delete_seconds=args.delete_seconds,
        rate_limit=args.rate_limit,
        remote_deliveries=args.remote_deliveries,
        state_dir=args.state_dir,
        strict=args.strict,
        extra_regions=args.extra_region,
        seed=args.seed,
        id_seed=args.id_seed,
        public_host=args.public_host,
        admin_from=args.admin_from,
    )
