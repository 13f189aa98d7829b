"""A fake API behind httpx's mock transport, and a fake clock for the retry delays."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from altostratus.client import Client
from altostratus.client._http import HTTPClient
from altostratus.client._settings import Settings

API_KEY = "sk-test-0123456789abcdef"
SETTINGS = Settings(api_key=API_KEY, api_url="http://api.test", region="LON1")

Handler = Callable[[httpx.Request], httpx.Response]


class FakeClock:
    """Stands in for time.sleep and time.monotonic: sleeping only moves the clock."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def monotonic(self) -> float:
        return self.now


class FakeAPI:
    """Records every request and answers from a list of queued answers, then a default."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.answers: list[httpx.Response | Exception] = []
        self.default: Handler = lambda request: httpx.Response(200, json={"result": "success"})
        self._lock = threading.Lock()

    def queue(self, *answers: httpx.Response | Exception) -> None:
        self.answers.extend(answers)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        with self._lock:
            self.requests.append(request)
            answer = self.answers.pop(0) if self.answers else None
        if isinstance(answer, Exception):
            raise answer
        return answer if answer is not None else self.default(request)

    @property
    def last(self) -> httpx.Request:
        return self.requests[-1]


def body_of(request: httpx.Request) -> Any:
    return json.loads(request.content) if request.content else None


def answer(status: int, body: Any = None, **headers: str) -> httpx.Response:
    if isinstance(body, str):
        return httpx.Response(status, text=body, headers=headers)
    return httpx.Response(status, json=body, headers=headers)


@pytest.fixture(autouse=True)
def _isolated_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """No test sees the settings of the machine it runs on."""
    for name in (
        "ALTOSTRATUS_API_KEY",
        "ALTOSTRATUS_API_URL",
        "ALTOSTRATUS_REGION",
        "ALTOSTRATUS_REQUEST_DEADLINE_SECONDS",
        "ALTOSTRATUS_MAX_ANSWER_BYTES",
        "CLI_API_KEY",
        "CLI_API_URL",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CLI_CONFIG_DIR", str(tmp_path / "no-cli-config"))


@pytest.fixture
def fake_api() -> FakeAPI:
    return FakeAPI()


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def http(fake_api: FakeAPI, fake_clock: FakeClock) -> Iterator[HTTPClient]:
    """An HTTPClient on the fake API, with no jitter and a fake clock."""
    client = HTTPClient(SETTINGS, transport=httpx.MockTransport(fake_api))
    client.sleep = fake_clock.sleep
    client.monotonic = fake_clock.monotonic
    client.random = lambda: 0.0
    yield client
    client.close()


@pytest.fixture
def fake_client(fake_api: FakeAPI, fake_clock: FakeClock) -> Iterator[Client]:
    """A Client on the fake API (explicit key, region LON1), sleeping on the fake clock."""
    with Client(API_KEY, "http://api.test", transport=httpx.MockTransport(fake_api)) as client:
        client._http.sleep = fake_clock.sleep
        client._http.monotonic = fake_clock.monotonic
        yield client
