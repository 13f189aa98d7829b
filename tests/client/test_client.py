from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import httpx

import altostratus.client
from altostratus.client import Client, errors, models

from .conftest import API_KEY, FakeAPI, answer
from .records import NETWORK


def test_the_client_exports_every_model_and_error() -> None:
    exported = set(altostratus.client.__all__)
    error_classes = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, errors.AltostratusError)
    }
    assert set(models.__all__) <= exported
    assert error_classes <= exported
    assert {"Client", "Settings", "resolve_settings"} <= exported
    for name in exported:
        assert getattr(altostratus.client, name) is not None
    assert sorted(dir(altostratus.client)) == sorted(exported)


def test_client_never_imports_pulumi() -> None:
    import subprocess
    import sys

    code = "import sys, altostratus.client; print('pulumi' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_context_manager_closes_the_connection_pool(fake_api: FakeAPI) -> None:
    with Client(API_KEY, transport=httpx.MockTransport(fake_api)) as client:
        pass
    assert client._http._client.is_closed


def test_region_argument_is_the_default_of_every_call(fake_api: FakeAPI) -> None:
    fake_api.default = lambda request: answer(200, [])
    with Client(API_KEY, region="fra1", transport=httpx.MockTransport(fake_api)) as client:
        assert client.region == "FRA1"
        client.networks.list()
        client.load_balancers.list(region="phx1")
    assert [r.url.params["region"] for r in fake_api.requests] == ["FRA1", "PHX1"]


def test_many_threads_share_one_client(fake_api: FakeAPI) -> None:
    """Every thread gets the answer to its own request, with no cross-talk and no failure."""
    threads_seen: set[int] = set()
    lock = threading.Lock()

    def network_named_after_its_id(request: httpx.Request) -> httpx.Response:
        with lock:
            threads_seen.add(threading.get_ident())
        network_id = request.url.path.rsplit("/", 1)[-1]
        region = request.url.params["region"]
        return answer(200, NETWORK | {"id": network_id, "label": region})

    fake_api.default = network_named_after_its_id
    regions = ["LON1", "FRA1", "NYC1", "PHX1"]
    with Client(API_KEY, transport=httpx.MockTransport(fake_api)) as client:

        def fetch(n: int) -> tuple[str, str]:
            network = client.networks.get(f"net-{n}", region=regions[n % 4])
            return network.id, network.label

        with ThreadPoolExecutor(max_workers=16) as pool:
            results = list(pool.map(fetch, range(400)))
    assert results == [(f"net-{n}", regions[n % 4]) for n in range(400)]
    assert len(fake_api.requests) == 400
    assert all(r.headers["Authorization"] == f"bearer {API_KEY}" for r in fake_api.requests)
    assert len(threads_seen) > 1
