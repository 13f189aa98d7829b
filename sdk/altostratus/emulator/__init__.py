"""A local emulator of the service's whole API, with S3 and webhook deliveries.

``Emulator`` starts the API and the S3 server on background threads (free ports by default)::

    with Emulator() as emulator:
        client = SomeClient(api_key=emulator.api_key, api_url=emulator.api_url)

Time-dependent behaviour (provisioning, removal, webhook retries) follows ``emulator.clock``,
which runs ``time_scale`` emulated seconds per real second and is moved by ``advance_clock``.
``delete_seconds`` makes removal take that long: a deleted network, firewall, load balancer,
reserved IP or object store stays in a deleting state, holding what it held, for that many
emulated seconds (0, the default: gone at once). ``bytes_per_gb`` is a test knob: it sets how
many bytes a gigabyte of an object store's ``max_size_gb`` holds, so small uploads can reach the
limit. Webhook deliveries go only to loopback receivers unless ``remote_deliveries`` is true: a
local emulator makes no traffic beyond the machine by surprise. Fields an operation does not take
are ignored, as the service does, and listed in the request log (``requests()``); with
``strict`` they are refused with a 400 naming the field, so a test catches a wrong call.
``extra_regions`` adds region codes beside the service's four (``"LOCAL"``, every feature; or
``"FAKE:object_store,loadbalancer"``, those features only), as the Terraform provider's tests use.
``seed`` (a YAML or JSON file, or its content as a dict; see ``seed``) declares the accounts and
resources the emulator starts with, and a reset returns to. ``id_seed`` makes every generated
id, bucket name suffix, access key and secret a deterministic sequence, started again by each
reset (see ``state.ids``); it cannot go with ``state_dir``.
``public_host`` is the name clients reach the emulator by, when it is not ``host`` (a container
listening on ``0.0.0.0`` is reached at ``127.0.0.1`` or by its service's name): the URLs it
reports (``api_url``, ``s3_url``, an object store's endpoint) use it. ``admin_from`` lists
networks (``"172.16.0.0/12"``) whose callers the admin endpoints answer besides loopback ones.

The test controls are methods of the emulator (``add_fault``, ``requests``, ``advance_clock``,
``reset``, accounts and quota, ``export_state`` and ``load_state``: the admin endpoints called
from Python, see ``control.client``), and
``EmulatorControls(api_url)`` has them for an emulator served by another process.
"""

from __future__ import annotations

import contextlib
import gc
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any

from altostratus.emulator.app import EmulatorApp
from altostratus.emulator.clock import Clock
from altostratus.emulator.control.client import ControlRefused, EmulatorControls
from altostratus.emulator.control.endpoints import admin_networks
from altostratus.emulator.control.same_origin import served_hosts
from altostratus.emulator.control.seed import SeedError, check_shape, read_seed
from altostratus.emulator.control.seed import apply as apply_seed
from altostratus.emulator.persistence import FolderClosed, StateFileError, StateFolder, snapshot
from altostratus.emulator.persistence.codec import IncompatibleState
from altostratus.emulator.persistence.files import DamagedStateFile
from altostratus.emulator.s3 import S3Service
from altostratus.emulator.s3.operations import Touched
from altostratus.emulator.serving.server import BackgroundServer
from altostratus.emulator.state import Settings, State
from altostratus.emulator.state.ids import IdSource
from altostratus.emulator.vocabulary import region_catalogue
from altostratus.emulator.webhooks import WebhookDispatcher

__all__ = [
    "Clock",
    "ControlRefused",
    "Emulator",
    "EmulatorControls",
    "SeedError",
    "StateFileError",
]


@contextlib.contextmanager
def _no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused: loading a large state makes objects by the hundred
    thousand and frees none, and each collection would walk them all again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _one_line(error: BaseException) -> str:
    lines = str(error).splitlines()
    return lines[0][:200] if lines else ""


class Emulator(EmulatorControls):
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
        delete_seconds: float = 0.0,
        rate_limit: float | None = None,
        bytes_per_gb: int = 1024**3,
        remote_deliveries: bool = False,
        state_dir: str | os.PathLike[str] | None = None,
        strict: bool = False,
        extra_regions: Sequence[str] = (),
        seed: str | os.PathLike[str] | dict[str, Any] | None = None,
        id_seed: int | None = None,
        public_host: str | None = None,
        admin_from: Sequence[str] = (),
    ) -> None:
        if not api_key:
            raise ValueError("api_key must not be empty")
        if not 0 <= delete_seconds < float("inf"):
            raise ValueError("delete_seconds must be a finite number of seconds from 0")
        for name, number in (("port", port), ("s3_port", s3_port)):
            if not 0 <= number <= 65535:
                raise ValueError(f"{name} must be from 1 to 65535, or 0 for a free one")
        self.host = host
        self.public_host = public_host or host
        self.port = port
        self.s3_port = s3_port
        self.api_key = api_key
        self.clock = Clock(time_scale)
        settings = Settings(
            lb_ready_seconds=lb_ready_seconds,
            objectstore_ready_seconds=objectstore_ready_seconds,
            delete_seconds=delete_seconds,
            bytes_per_gb=bytes_per_gb,
            regions=region_catalogue(extra_regions),
        )
        if id_seed is not None and state_dir is not None:
            raise ValueError(
                "give an id_seed or a state_dir, not both: a restarted emulator would hand out "
                "the saved records' ids again"
            )
        self.id_seed = id_seed
        self.state = State(self.clock, api_key=api_key, settings=settings, ids=IdSource(id_seed))
        self.s3 = S3Service(self.state)
        self.state.buckets = self.s3
        self.dispatcher = WebhookDispatcher(
            self.state, self.clock, remote_deliveries=remote_deliveries, ids=self.state.lock.ids
        )
        self.app = EmulatorApp(self.state, self.dispatcher, rate_limit=rate_limit, strict=strict)
        self.app.admin_from = admin_networks(admin_from)
        self.folder: StateFolder | None = None
        self._save: Callable[..., None] | None = None
        if seed is not None:
            if state_dir is not None:
                raise ValueError("give a seed or a state_dir, not both")
            declared = seed if isinstance(seed, dict) else read_seed(seed)
            self.app.seed = check_shape(declared)
            apply_seed(self.app, self.app.seed)
        if state_dir is not None:
            self.folder = StateFolder(state_dir)
            try:
                self._load(self.folder)
            except BaseException:
                self.folder.close()
                raise
        super().__init__("")  # the API's address, once started
        self.s3_url = ""
        self._servers: list[BackgroundServer] = []

    def _load(self, folder: StateFolder) -> None:
        """Take the saved state, if any, and save after every change from now on."""
        try:
            saved = self._restore(folder)
        except StateFileError:
            raise
        except IncompatibleState as error:
            problem = f"was written by an incompatible version ({error})"
            raise DamagedStateFile(folder.database, problem) from None
        except Exception as error:  # any other shape than the emulator writes
            problem = f"is damaged ({type(error).__name__}: {_one_line(error)})"
            raise DamagedStateFile(folder.database, problem) from None
        self.api_key = self.state.default_account.api_key
        taker = snapshot.Changes(self.state)
        # A replacement of the whole state (a reset, a state import) is one change, one
        # transaction: while it runs, its own changes are not saved, and every other save and
        # removal waits for it; then the new buckets' objects, the records and the removal of
        # the old buckets are committed at once. A crash before the commit leaves the old
        # state, after it the new one.
        gate = threading.RLock()
        replacing: list[int] = []  # the thread replacing the state, while it does
        removed: list[str] = []  # the buckets the replacement removed

        def save(*, compact: bool = False) -> None:
            with gate:
                if threading.get_ident() in replacing:
                    return  # kept whole when the replacement ends
                # Stopped (a delivery ending after the stop): the last save was made before the
                # folder closed. Caught, not checked first, so no close can slip in between.
                with contextlib.suppress(FolderClosed):
                    folder.save(
                        lambda: taker.take(self.clock, self.dispatcher),
                        lambda: taker.whole(self.clock, self.dispatcher),
                        compact=compact,
                    )

        def forget(bucket: str) -> None:
            with gate:
                if threading.get_ident() in replacing:
                    removed.append(bucket)
                else:
                    folder.objects.forget(bucket)

        def replace(change: Callable[[], None]) -> None:
            with gate:
                replacing.append(threading.get_ident())
                try:
                    change()
                finally:  # a failed load is kept as it left the state, reset and partly made
                    replacing.clear()
                    with self.state.lock:
                        kept = {s.bucket for s in self.state.object_stores.records.values()}
                    with folder.transaction():
                        for bucket in sorted(kept):
                            folder.objects.save(Touched(bucket, whole=True))
                        save(compact=True)
                        for bucket in set(removed) - kept:
                            folder.objects.forget(bucket)
                    removed.clear()

        self.app.on_change = save
        self.app.replacing = replace
        self.dispatcher.on_change = save
        self.s3.on_change = folder.objects.save
        self.s3.on_removed = forget
        self._save = save
        if saved:
            taker.start(self.dispatcher)  # the folder holds the state: nothing to write
        else:
            save(compact=True)  # a new folder: its first records

    def _restore(self, folder: StateFolder) -> bool:
        """Put the saved state and objects back; whether the folder held any."""
        with _no_collection():  # tens of thousands of objects made, none of them garbage
            saved = folder.read()
            if saved is not None:
                snapshot.apply(saved, self.state, self.clock, self.dispatcher)
        with self.state.lock:
            buckets = [store.bucket for store in self.state.object_stores.records.values()]
        for bucket in buckets:
            self.s3.create_bucket(bucket, empty=True)
            folder.objects.restore(bucket)
            self.s3.count_bucket(bucket)
        folder.objects.prune(set(buckets))
        return saved is not None

    def start(self) -> Emulator:
        s3_server = BackgroundServer(self.host, self.s3_port, self.s3, "S3")
        try:
            api_server = BackgroundServer(self.host, self.port, self.app, "API")
        except BaseException:
            s3_server.stop()
            raise
        self.s3_url = s3_server.url(self.public_host)
        self.api_url = api_server.url(self.public_host)
        self.state.settings.s3_url = self.s3_url
        self.app.served_hosts = served_hosts(self.host, api_server.port, self.public_host)
        self._servers = [s3_server, api_server]
        self.dispatcher.refuse_ports({s3_server.port, api_server.port})
        self.dispatcher.start()
        for server in self._servers:
            server.start()
        return self

    def stop(self) -> None:
        """Stop both servers (answers in progress finish) and the deliveries; with a state
        folder, save a last time and release it."""
        for server in self._servers:
            server.stop()
        self._servers = []
        self.dispatcher.stop()
        if self.folder is not None:
            if self._save is not None:
                self._save()
            self.folder.close()

    def reset(self) -> None:
        """The same as ``POST /_emulator/reset``, made in this process (served or not)."""
        self.app.reset()
        if self.app.on_change is not None:
            self.app.on_change()

    def __enter__(self) -> Emulator:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
