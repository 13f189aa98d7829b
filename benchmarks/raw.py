"""The baseline: the requests a provider makes, sent with bare httpx and nothing else.

Each ``Kind`` pairs a provider with the same lifecycle written as raw calls: the same methods,
paths, queries and JSON bodies the client sends, with only ``response.json()`` on the answers.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from altostratus.providers._base import Provider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store_credential import ObjectStoreCredentialProvider
from altostratus.providers.reserved_ip import ReservedIpProvider
from altostratus.providers.webhook import WebhookProvider
from benchmarks.replay import raw_client as raw_client

REGION = "LON1"
# Webhooks point at a closed loopback port and subscribe to an event no section causes, so the
# emulator never delivers while a benchmark runs.
HOOK = {"url": "http://127.0.0.1:9/hooks", "events": ["objectstore.created"]}
HOOK_UPDATE = {"url": "http://127.0.0.1:9/other", "events": ["objectstore.deleted"]}
_WHERE = {"region": REGION}
_numbers = itertools.count()

Handle = dict[str, Any]


class ThreadClients:
    """One raw client per thread, as the provider process keeps one per process; ``close()``
    closes every client made."""

    def __init__(self, api_url: str, api_key: str) -> None:
        self.api_url, self.api_key = api_url, api_key
        self._local = threading.local()
        self._made: list[httpx.Client] = []

    def get(self) -> httpx.Client:
        client: httpx.Client | None = getattr(self._local, "client", None)
        if client is None:
            client = self._local.client = raw_client(self.api_url, self.api_key)
            self._made.append(client)
        return client

    def close(self) -> None:
        for client in self._made:
            client.close()


def _call(http: httpx.Client, method: str, path: str, body: Any = None, where: bool = True) -> Any:
    response = http.request(method, path, params=_WHERE if where else None, json=body)
    response.raise_for_status()
    return response.json()


@dataclass(frozen=True)
class Kind:
    name: str
    provider: Provider
    inputs: dict[str, Any]
    """The program's inputs (the name prefix is added per resource)."""
    update: dict[str, Any]
    create: Callable[[httpx.Client], Handle]
    read: Callable[[httpx.Client, Handle], object]
    change: Callable[[httpx.Client, Handle], object]
    delete: Callable[[httpx.Client, Handle], object]


def _regional(
    path: str, update: Callable[[httpx.Client, Handle], object], *, confirm: bool = True
) -> dict[str, Any]:
    """``confirm``: the delete reads the record until it is gone, as the providers do for the
    kinds whose removal may take time (once, when it is gone at once)."""

    def read(http: httpx.Client, handle: Handle) -> Any:
        return _call(http, "GET", f"{path}/{handle['id']}")

    def delete(http: httpx.Client, handle: Handle) -> Any:
        answer = _call(http, "DELETE", f"{path}/{handle['id']}")
        if confirm:
            gone = http.request("GET", f"{path}/{handle['id']}", params=_WHERE)
            if gone.status_code != 404:
                raise RuntimeError(f"{path}/{handle['id']} is still there after its delete")
        return answer

    return {"read": read, "change": update, "delete": delete}


def _network_create(http: httpx.Client) -> Handle:
    body = {"label": f"raw-{next(_numbers)}", "region": REGION}
    created = _call(http, "POST", "/v2/vpc/networks", body)
    return _call(http, "GET", f"/v2/vpc/networks/{created['id']}")  # type: ignore[no-any-return]


def _network_update(http: httpx.Client, handle: Handle) -> Any:
    path = f"/v2/vpc/networks/{handle['id']}"
    _call(http, "PUT", path, {"label": f"raw-{next(_numbers)}", "region": REGION})
    return _call(http, "GET", path)


def _ip_create(http: httpx.Client) -> Handle:
    body = {"name": f"raw-{next(_numbers)}", "region": REGION}
    created = _call(http, "POST", "/v2/vpc/ips", body)
    return _call(http, "GET", f"/v2/vpc/ips/{created['id']}")  # type: ignore[no-any-return]


def _ip_update(http: httpx.Client, handle: Handle) -> Any:
    path = f"/v2/vpc/ips/{handle['id']}"
    _call(http, "PUT", path, {"name": f"raw-{next(_numbers)}", "region": REGION})
    return _call(http, "GET", path)


def _credential_create(http: httpx.Client) -> Handle:
    body = {"name": f"raw-{next(_numbers)}", "region": REGION}
    return _call(http, "POST", "/v2/objectstore/credentials", body)  # type: ignore[no-any-return]


def _credential_update(http: httpx.Client, handle: Handle) -> Any:
    body = {"region": REGION, "max_size_gb": 10}
    return _call(http, "PATCH", f"/v2/objectstore/credentials/{handle['id']}", body)


def _webhook_read(http: httpx.Client, handle: Handle) -> Handle:
    webhooks = _call(http, "GET", "/v2/webhooks", where=False)
    return next(w for w in webhooks if w["id"] == handle["id"])


def _webhook_create(http: httpx.Client) -> Handle:
    created = _call(http, "POST", "/v2/webhooks", HOOK, where=False)
    return _webhook_read(http, created)


def _webhook_update(http: httpx.Client, handle: Handle) -> Any:
    return _call(http, "PUT", f"/v2/webhooks/{handle['id']}", HOOK_UPDATE, where=False)


def _webhook_delete(http: httpx.Client, handle: Handle) -> Any:
    return _call(http, "DELETE", f"/v2/webhooks/{handle['id']}", where=False)


KINDS = [
    Kind(
        "network",
        NetworkProvider(),
        {},
        {"label": "renamed"},
        _network_create,
        **_regional("/v2/vpc/networks", _network_update),
    ),
    Kind(
        "reserved_ip",
        ReservedIpProvider(),
        {},
        {"name": "renamed"},
        _ip_create,
        **_regional("/v2/vpc/ips", _ip_update),
    ),
    Kind(
        "object_store_credential",
        ObjectStoreCredentialProvider(),
        {},
        {"max_size_gb": 10},
        _credential_create,
        **_regional("/v2/objectstore/credentials", _credential_update, confirm=False),
    ),
    Kind(
        "webhook",
        WebhookProvider(),
        HOOK,
        HOOK_UPDATE,
        _webhook_create,
        _webhook_read,
        _webhook_update,
        _webhook_delete,
    ),
]
