"""Plain HTTP calls to the service's API, as a client that is not ours would send them."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any


class Http:
    """Plain HTTP calls to the service's API with a chosen key (None: no Authorization)."""

    def __init__(self, base_url: str, key: str | None) -> None:
        self.base_url = base_url
        self.key = key

    def call(
        self, method: str, path: str, body: Any = None, *, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        sent = {"Accept": "application/json", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        if self.key is not None:
            sent["Authorization"] = f"bearer {self.key}"
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        for name, value in sent.items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        return status, json.loads(raw) if raw.strip() else None
