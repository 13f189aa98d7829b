"""Section 6: S3 upload and download throughput through the emulator's Signature V4 front,
beside moto's own S3 application served directly (the same WSGI app, werkzeug's threaded server
and moto's request handler), interleaved; and a 1 KiB PUT as the bucket fills, through the front
with and without ``--state-dir`` (which writes each object's bytes and head before answering)."""

from __future__ import annotations

import logging
import math
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import boto3
from botocore.config import Config
from moto.moto_server.werkzeug_app import MotoRequestHandler, create_backend_app
from werkzeug.serving import make_server

from altostratus.client import Client
from benchmarks.measure import interleave, median, rounds, timed
from benchmarks.report import INFO, Section, Table, verdict
from benchmarks.servers import fast_emulator

TITLE = "6. S3 throughput"
TARGET = 0.8
FILL_TARGET = 1.2
MIB = 1 << 20
_CONFIG = Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1})


def _s3(endpoint: str, key: str, secret: str) -> Any:
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=key,
        aws_secret_access_key=secret,
        region_name="us-east-1",
        config=_CONFIG,
    )


@contextmanager
def direct_moto() -> Iterator[str]:
    """moto's S3 app on a free loopback port; yields its URL."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's handler logs each request
    server = make_server(
        "127.0.0.1", 0, create_backend_app("s3"), threaded=True, request_handler=MotoRequestHandler
    )
    thread = threading.Thread(target=server.serve_forever, name="direct-moto", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _emulated_store(api: Client) -> tuple[str, str, str, str]:
    """An object store of the emulator, ready: its S3 address, bucket, key and secret."""
    store = api.object_stores.create(name="throughput")
    deadline = time.monotonic() + 30
    while store.status != "ready" and time.monotonic() < deadline:
        time.sleep(0.05)
        store = api.object_stores.get(store.id)
    assert store.owner_info is not None and store.objectstore_endpoint
    key = store.owner_info.access_key_id
    secret = next(
        c.secret_access_key_id
        for c in api.object_store_credentials.list()
        if c.access_key_id == key
    )
    endpoint, _, bucket = store.objectstore_endpoint.rpartition("/")
    return endpoint, bucket, str(key), str(secret)


def _put(s3: Any, bucket: str, body: bytes) -> float:
    started = time.perf_counter()
    s3.put_object(Bucket=bucket, Key="object", Body=body)
    return time.perf_counter() - started


def _get(s3: Any, bucket: str, size: int) -> float:
    started = time.perf_counter()
    data = s3.get_object(Bucket=bucket, Key="object")["Body"].read()
    elapsed = time.perf_counter() - started
    assert len(data) == size
    return elapsed


def _fill(s3: Any, bucket: str, upto: int, body: bytes) -> None:
    """Keys ``fill-<n>`` in the bucket up to ``upto`` of them (a thread pool: it is set-up)."""
    from concurrent.futures import ThreadPoolExecutor

    have = s3.list_objects_v2(Bucket=bucket, Prefix="fill-").get("KeyCount", 0)
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda n: s3.put_object(Bucket=bucket, Key=f"fill-{n}", Body=body),
                      range(have, upto)))  # fmt: skip


def _fill_table(
    sides: dict[str, tuple[Any, str]], sizes: list[int], count: int
) -> tuple[Table, float]:
    """A 1 KiB PUT's median time with ``sizes`` keys in the bucket, on every side: the front,
    the front keeping its state in a folder (``kept``), moto direct."""
    table = Table(
        ["keys in the bucket", "PUT through the front", "with --state-dir", "moto direct",
         f"front / front at {sizes[0]}", f"--state-dir / itself at {sizes[0]}", "target",
         "verdict"],
        caption="Median time of a 1 KiB put_object as the bucket fills (the size limit is "
        "checked on every write from a running count, so it does not grow with the bucket; "
        "with --state-dir a write keeps the key it touched, its bytes and its head, whatever "
        "the bucket holds).",
    )  # fmt: skip
    body = os.urandom(1024)
    first: dict[str, float] = {}
    growth = 0.0
    for size in sizes:
        for s3, bucket in sides.values():
            _fill(s3, bucket, size, body)

        def put(side: str) -> float:
            s3, bucket = sides[side]
            # An overwrite: the bucket stays as full.
            return timed(lambda: s3.put_object(Bucket=bucket, Key="fill-0", Body=body))

        pair = interleave(lambda: put("front"), lambda: put("direct"), count, math.inf)
        kept_pair = interleave(lambda: put("kept"), lambda: put("direct"), count, math.inf)
        front, kept = median(pair.measured), median(kept_pair.measured)
        direct = median(pair.baseline + kept_pair.baseline)
        first.setdefault("front", front)
        first.setdefault("kept", kept)
        grew = {"front": front / first["front"], "kept": kept / first["kept"]}
        growth = max(grew.values())
        last = size == sizes[-1]
        table.add(
            size, f"{front * 1000:.2f} ms", f"{kept * 1000:.2f} ms", f"{direct * 1000:.2f} ms",
            f"{grew['front']:.2f}", f"{grew['kept']:.2f}", "≤ 1.2 (both)" if last else INFO,
            verdict(growth <= FILL_TARGET) if last else INFO,
        )  # fmt: skip
    return table, growth


def run(quick: bool) -> Section:
    plan = [(1, 3, 5.0)] if quick else [(1, 30, 20.0), (64, 5, 60.0)]
    section = Section("s3", TITLE)
    table = Table(
        ["object", "operation", "through the front", "moto direct", "ratio", "target", "verdict"],
        caption="Median throughput of boto3 put_object and get_object, path-style, over HTTP.",
    )
    with (
        tempfile.TemporaryDirectory(prefix="altostratus-s3-") as folder,
        fast_emulator() as emulator,
        fast_emulator(state_dir=folder) as keeping,
        direct_moto() as direct_url,
    ):
        with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
            endpoint, bucket, key, secret = _emulated_store(api)
        with Client(api_key=keeping.api_key, api_url=keeping.api_url) as api:
            kept_store = _emulated_store(api)
        front = _s3(endpoint, key, secret)
        direct = _s3(direct_url, "direct-key", "direct-secret")
        direct.create_bucket(Bucket="direct-throughput")
        sides = {"front": (front, bucket), "direct": (direct, "direct-throughput")}
        for mib, count, seconds in plan:
            size = mib * MIB
            body = os.urandom(size)
            times: dict[str, list[float]] = {
                f"{s}.{op}": [] for s in sides for op in ("put", "get")
            }
            for side in sides.values():  # warm up: connections, the first object
                _put(side[0], side[1], body)
            for number in rounds(count, seconds):
                order = list(sides) if number % 2 == 0 else list(reversed(sides))
                for name in order:
                    times[f"{name}.put"].append(_put(*sides[name], body))
                for name in order:
                    times[f"{name}.get"].append(_get(*sides[name], size))
            for op, shown in (("put", "upload"), ("get", "download")):
                front_rate = mib / median(times[f"front.{op}"])
                direct_rate = mib / median(times[f"direct.{op}"])
                ratio = front_rate / direct_rate
                table.add(
                    f"{mib} MiB", shown, f"{front_rate:.0f} MiB/s", f"{direct_rate:.0f} MiB/s",
                    f"{ratio:.2f}", f"≥ {TARGET:.1f}", verdict(ratio >= TARGET),
                )  # fmt: skip
                section.data[f"{mib}MiB.{op}"] = {
                    "front": front_rate,
                    "direct": direct_rate,
                    "ratio": ratio,
                    "rounds": len(times[f"front.{op}"]),
                }
        sizes = [100, 300] if quick else [100, 10_000]
        kept_side = (_s3(kept_store[0], *kept_store[2:]), kept_store[1])
        fill, growth = _fill_table({**sides, "kept": kept_side}, sizes, 20 if quick else 200)
    section.tables.append(table)
    section.tables.append(fill)
    section.data["fill"] = {"ratio": growth, "keys": sizes}
    if quick:
        section.notes.append("quick run: 1 MiB objects only")
    return section
