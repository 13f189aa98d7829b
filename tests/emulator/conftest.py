"""Fixtures: the service in process, its recording stand-ins, a second account, the S3 front
served on a free port with a wall clock the tests can move, and the webhook delivery worker with
a local receiver and an emulated clock."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.config import Config
from moto.moto_server.werkzeug_app import MotoRequestHandler, create_backend_app
from werkzeug.serving import make_server

from altostratus.emulator.app import EmulatorApp
from altostratus.emulator.clock import Clock
from altostratus.emulator.state import Settings, State
from altostratus.emulator.webhooks import WebhookDispatcher
from tests.support.served_s3 import DIRECT_BUCKET, S3Server, WallClock, serve_s3
from tests.support.service_api import KEY, S3_URL, Api, RecordingBuckets, RecordingEvents
from tests.support.webhook_receiver import FakeWebhooks, Receiver, serve_receiver


@pytest.fixture
def events() -> RecordingEvents:
    return RecordingEvents()


@pytest.fixture
def buckets() -> RecordingBuckets:
    return RecordingBuckets()


@pytest.fixture
def service(events: RecordingEvents, buckets: RecordingBuckets) -> EmulatorApp:
    settings = Settings(lb_ready_seconds=2.0, objectstore_ready_seconds=1.0, s3_url=S3_URL)
    state = State(Clock(), api_key=KEY, settings=settings)
    state.buckets = buckets
    return EmulatorApp(state, events)


@pytest.fixture
def wsgi_api(service: EmulatorApp) -> Api:
    return Api(service)


@pytest.fixture(
    params=[("/v2/vpc", False), ("/v2", False), ("/v2/vpc", True), ("/v2", True)],
    ids=["vpc-json", "v2-json", "vpc-form", "v2-form"],
)
def any_api(service: EmulatorApp, request: pytest.FixtureRequest) -> Api:
    """The service through both path families and both body encodings."""
    prefix, form = request.param
    return Api(service, prefix=prefix, form=form)


@pytest.fixture
def other(wsgi_api: Api) -> Api:
    """A second account's view of the same service."""
    account = wsgi_api.admin("POST", "/accounts", {"name": "other"})
    return wsgi_api.with_key(account["api_key"])


@pytest.fixture
def network(wsgi_api: Api) -> dict[str, Any]:
    created = wsgi_api.ok("POST", "/networks", {"label": "app"})
    return wsgi_api.ok("GET", f"/networks/{created['id']}")


@pytest.fixture(scope="module")
def wall() -> WallClock:
    return WallClock()


@pytest.fixture(scope="module")
def s3_server(wall: WallClock) -> Iterator[S3Server]:
    yield from serve_s3(wall_time=wall)


@pytest.fixture
def s3(s3_server: S3Server, wall: WallClock) -> S3Server:
    wall.offset = 0.0
    s3_server.populate()
    return s3_server


@pytest.fixture(scope="module")
def receiver_server() -> Iterator[Receiver]:
    yield from serve_receiver()


@pytest.fixture
def receiver(receiver_server: Receiver) -> Receiver:
    receiver_server.reset()
    return receiver_server


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def hooks() -> FakeWebhooks:
    return FakeWebhooks()


@pytest.fixture
def dispatcher(hooks: FakeWebhooks, clock: Clock) -> Iterator[WebhookDispatcher]:
    worker = WebhookDispatcher(hooks, clock)
    worker.start()
    yield worker
    worker.stop()


@pytest.fixture(scope="module")
def direct() -> Iterator[Any]:
    """A client of moto's S3 served on its own, without the front."""
    server = make_server(
        "127.0.0.1", 0, create_backend_app("s3"), threaded=True, request_handler=MotoRequestHandler
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    client = boto3.client(
        "s3",
        endpoint_url=f"http://127.0.0.1:{server.server_port}",
        region_name="us-east-1",
        aws_access_key_id="moto",
        aws_secret_access_key="moto",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
    )
    client.create_bucket(Bucket=DIRECT_BUCKET)
    try:
        yield client
    finally:
        server.shutdown()
        server.server_close()
