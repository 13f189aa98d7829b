"""A loopback proxy in front of the emulator that answers in the shapes of the real service.

The service's official clients' fixtures show answers that leave out fields the spec shows, add
others, and name some differently. ``ShapingProxy`` forwards every request to the emulator and
rewrites its JSON answers into one of those shapes, so that a provider process, a lookup or a
client pointed at the proxy meets them:

- ``"official"``: the shapes of the official clients' fixtures (see ``official``);
- ``"ids"``: every record reduced to its ``id``, the least an answer can carry.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

OMITTED = {
    "webhooks": ("created_at",),
    "loadbalancers": ("created_at", "max_concurrent_requests"),
    "networks": ("gateway_ipv4", "free_ip_count"),
    "firewalls": ("account_id", "label"),
}
"""Fields the official clients' fixtures leave out of the records of each collection."""
EXTRA_QUOTA = {"loadbalancer_count_limit": 16, "objectstore_gb_usage": 0}
_COLLECTION = re.compile(r"^/v2/(?:vpc/)?(?P<collection>[a-z]+(?:/credentials)?)")


def collection_of(path: str) -> str:
    """``networks``, ``firewalls``, ``rules``, ``objectstores``, ``quota``, ..."""
    if "/rules" in path:
        return "rules"
    match = _COLLECTION.match(path)
    return match["collection"] if match else ""


MEANINGFUL = ("assigned_to",)
"""Fields whose absence carries meaning (a reserved IP without ``assigned_to`` is unassigned):
``ids_only`` keeps them."""


def ids_only(value: Any) -> Any:
    """Every object that has an id reduced to its id (and the fields whose absence carries
    meaning), at any depth; the rest kept."""
    if isinstance(value, dict):
        if "id" in value:
            kept = {key: ids_only(value[key]) for key in MEANINGFUL if key in value}
            return {"id": value["id"], **kept}
        return {key: ids_only(item) for key, item in value.items()}
    if isinstance(value, list):
        return [ids_only(item) for item in value]
    return value


def _record(collection: str, record: dict[str, Any], method: str) -> dict[str, Any]:
    shaped = {k: v for k, v in record.items() if k not in OMITTED.get(collection, ())}
    if collection == "networks" and method == "POST":
        shaped.pop("name", None)
    if collection == "objectstores" and "max_size_gb" in shaped:
        shaped["max_size"] = shaped.pop("max_size_gb")
    if collection == "loadbalancers" and isinstance(shaped.get("backends"), list):
        shaped["backends"] = [
            {**{k: v for k, v in backend.items() if k != "protocol"}, "health_check_port": 80}
            for backend in shaped["backends"]
        ]
    if collection == "quota":
        shaped.pop("clusters_current_count", None)
        shaped.update(EXTRA_QUOTA)
    return shaped


def official(collection: str, method: str, body: Any) -> Any:
    """An answer of the emulator in the shapes of the official clients' fixtures."""
    if isinstance(body, list):
        return [official(collection, method, item) for item in body]
    if isinstance(body, dict) and isinstance(body.get("items"), list):
        return {**body, "items": official(collection, method, body["items"])}
    if isinstance(body, dict) and ("id" in body or collection == "quota"):
        return _record(collection, body, method)
    return body


class ShapingProxy:
    """Serves on a free loopback port; ``url`` is its base URL. ``shape`` may change at any
    time; ``shaped`` counts the answers it rewrote."""

    def __init__(self, upstream: str, shape: str) -> None:
        self.upstream = upstream
        self.shape = shape
        self.shaped = 0
        self._client = httpx.Client(base_url=upstream, timeout=30)
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                content = self.rfile.read(length) if length else b""
                status, answer = proxy.answer(self.command, self.path, dict(self.headers), content)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _forward

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def answer(
        self, method: str, target: str, headers: dict[str, str], content: bytes
    ) -> tuple[int, bytes]:
        sent = {k: v for k, v in headers.items() if k.lower() in ("authorization", "content-type")}
        response = self._client.request(method, target, headers=sent, content=content)
        path = target.split("?", 1)[0]
        try:
            body = response.json()
        except ValueError:
            return response.status_code, response.content
        if response.status_code != 200 or path.startswith("/_emulator"):
            return response.status_code, response.content
        shaped = self._shaped(method, path, body, sent)
        if shaped != body:
            self.shaped += 1
        return response.status_code, json.dumps(shaped).encode()

    def _shaped(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        if self.shape == "ids":
            return ids_only(body)
        collection = collection_of(path)
        if collection == "webhooks" and method == "POST" and path == "/v2/webhooks":
            # Some services answer a webhook's create with the whole webhook.
            listed = self._client.get("/v2/webhooks", headers=headers).json()
            (body,) = [hook for hook in listed if hook["id"] == body["id"]]
        if collection == "firewalls" and method == "PUT" and "/rules" not in path:
            return {"result": "success"}  # a rename, as the official client's tests answer it
        return official(collection, method, body)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._client.close()


@contextmanager
def shaping_proxy(upstream: str, shape: str) -> Iterator[ShapingProxy]:
    proxy = ShapingProxy(upstream, shape)
    try:
        yield proxy
    finally:
        proxy.close()
