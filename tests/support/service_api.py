"""The emulator's service in process (Werkzeug's test client), with recording stand-ins for the
S3 service and the webhook worker so tests see every bucket change and event at once."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from werkzeug.test import Client

from altostratus.emulator.app import EmulatorApp
from altostratus.emulator.webhooks import DeliveryTarget

KEY = "local-dev-key"
S3_URL = "http://127.0.0.1:9999"


@dataclass
class RecordingEvents:
    emitted: list[tuple[str, str, str]] = field(default_factory=list)
    tests: list[DeliveryTarget] = field(default_factory=list)

    def emit(self, account_id: str, event: str, resource_id: str) -> None:
        self.emitted.append((account_id, event, resource_id))

    def send_test(self, target: DeliveryTarget) -> None:
        self.tests.append(target)

    def deliveries(self) -> list[dict[str, object]]:
        return [{"event": e} for _, e, _ in self.emitted]

    def reset(self) -> None:
        self.emitted.clear()
        self.tests.clear()

    def names(self) -> list[str]:
        return [event for _, event, _ in self.emitted]


@dataclass
class RecordingBuckets:
    created: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    resets: int = 0

    def create_bucket(self, name: str) -> None:
        self.created.append(name)

    def delete_bucket(self, name: str) -> None:
        self.deleted.append(name)

    def reset(self) -> None:
        self.resets += 1

    def contents(self, name: str) -> tuple[int, int]:
        return 0, 0


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str]


class Api:
    """Calls the service like a user would. ``path`` below ``/v2`` gets ``prefix`` (``/v2/vpc``
    or ``/v2``) when it names a networking collection; bodies go as JSON or form-encoded."""

    NETWORKING = ("/networks", "/firewalls", "/loadbalancers", "/ips", "/regions")

    def __init__(
        self, app: EmulatorApp, key: str = KEY, prefix: str = "/v2/vpc", form: bool = False
    ):
        self.app = app
        self.client = Client(app)
        self.key = key
        self.prefix = prefix
        self.form = form

    def with_key(self, key: str) -> Api:
        return Api(self.app, key, self.prefix, self.form)

    def url(self, path: str) -> str:
        if path.startswith(("/v2", "/api/v1", "/_emulator", "/openapi")):
            return path
        return (self.prefix if path.startswith(self.NETWORKING) else "/v2") + path

    def call(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        *,
        query: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        form: bool | None = None,
    ) -> Reply:
        sent = {"Authorization": f"bearer {self.key}"} if self.key else {}
        sent.update(headers or {})
        data = None
        if body is not None:
            if self.form if form is None else form:
                fields = {
                    k: json.dumps(v) if isinstance(v, (list, dict, bool)) else str(v)
                    for k, v in body.items()
                }
                data = urlencode(fields)
                sent.setdefault("Content-Type", "application/x-www-form-urlencoded")
            else:
                data = json.dumps(body)
                sent.setdefault("Content-Type", "application/json")
        url = self.url(path)
        if query:
            url += "?" + urlencode(query)
        response = self.client.open(
            url,
            method=method,
            data=data,
            headers=sent,
            environ_base={"REMOTE_ADDR": "127.0.0.1"},
        )
        text = response.get_data(as_text=True)
        return Reply(
            response.status_code, json.loads(text) if text else None, dict(response.headers)
        )

    def get(self, path: str, **kw: Any) -> Reply:
        return self.call("GET", path, **kw)

    def post(self, path: str, body: dict[str, Any] | None = None, **kw: Any) -> Reply:
        return self.call("POST", path, body if body is not None else {}, **kw)

    def put(self, path: str, body: dict[str, Any] | None = None, **kw: Any) -> Reply:
        return self.call("PUT", path, body if body is not None else {}, **kw)

    def patch(self, path: str, body: dict[str, Any] | None = None, **kw: Any) -> Reply:
        return self.call("PATCH", path, body if body is not None else {}, **kw)

    def delete(self, path: str, **kw: Any) -> Reply:
        return self.call("DELETE", path, **kw)

    def ok(self, method: str, path: str, body: dict[str, Any] | None = None, **kw: Any) -> Any:
        reply = self.call(method, path, body, **kw)
        assert reply.status == 200, reply.body
        return reply.body

    def error(
        self, status: int, code: str, method: str, path: str, body: Any = None, **kw: Any
    ) -> Reply:
        reply = self.call(method, path, body, **kw)
        assert (reply.status, reply.body["code"]) == (status, code), reply.body
        assert reply.body["result"] == "failed" and reply.body["reason"]
        return reply

    def admin(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """An admin call; a change is sent as JSON (``{}`` when there is no body), as the admin
        endpoints require."""
        if body is None and method not in ("GET", "HEAD"):
            body = {}
        return self.ok(method, "/_emulator" + path, body, form=False)

    def advance(self, seconds: float) -> None:
        self.admin("POST", "/clock", {"advance_seconds": seconds})
