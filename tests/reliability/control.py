"""The emulator's admin endpoints, called as a test would over HTTP."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from altostratus.emulator import Emulator


def admin(emulator: Emulator, method: str, path: str, body: Any = None) -> Any:
    """Call ``/_emulator/<path>`` and return its decoded JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{emulator.api_url}/_emulator/{path}",
        data=data,
        method=method,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read() or b"null")


def inject(emulator: Emulator, **settings: Any) -> None:
    """Add one fault (``count`` defaults to 1)."""
    admin(emulator, "POST", "faults", {"count": 1, **settings})


def logged_requests(emulator: Emulator) -> list[dict[str, Any]]:
    return list(admin(emulator, "GET", "requests"))


def clear_requests(emulator: Emulator) -> None:
    admin(emulator, "DELETE", "requests")


def default_account_id(emulator: Emulator) -> str:
    for account in admin(emulator, "GET", "accounts"):
        if account["api_key"] == emulator.api_key:
            return str(account["id"])
    raise AssertionError("the emulator has no account for its own key")


def new_account(emulator: Emulator, name: str) -> dict[str, str]:
    """A second account: its id, name and API key."""
    return dict(admin(emulator, "POST", "accounts", {"name": name}))


def set_limits(emulator: Emulator, account_id: str, **limits: int) -> None:
    admin(emulator, "PUT", f"accounts/{account_id}/quota", limits)


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
