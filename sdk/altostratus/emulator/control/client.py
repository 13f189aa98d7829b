"""The emulator's test controls as Python calls: faults, the request log, the clock, accounts and
their quota, webhook deliveries, reset.

They are the admin endpoints under ``/_emulator/`` (the emulator guide's table), called over HTTP,
so they check what those check and refuse what those refuse (``ControlRefused``, a
``ValueError``). ``Emulator`` has them for the emulator it serves; ``EmulatorControls(api_url)``
controls one served elsewhere (``python -m altostratus.emulator``, another process)::

    emulator.add_fault(method="POST", path_prefix="/v2/vpc/networks", status=503)
    emulator.advance_clock(3600)
    [entry["path"] for entry in emulator.requests()]
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

#: Real seconds an admin call may take: a held request (a fault's delay) never holds one.
TIMEOUT_SECONDS = 30


class ControlRefused(ValueError):
    """The emulator refused a control: ``status``, its ``code`` and ``reason``."""

    def __init__(self, status: int, code: str, reason: str) -> None:
        super().__init__(f"{status} {code}: {reason}")
        self.status = status
        self.code = code
        self.reason = reason


class EmulatorControls:
    """The test controls of the emulator whose API is served at ``api_url``."""

    def __init__(self, api_url: str) -> None:
        self.api_url = api_url

    def add_fault(
        self,
        *,
        method: str | None = None,
        path_prefix: str | None = None,
        count: int = 1,
        status: int | None = None,
        delay_seconds: float | None = None,
        drop_connection: bool = False,
        after_apply: bool = False,
        retry_after_seconds: int | None = None,
        mangle: str | None = None,
    ) -> str:
        """Make the next ``count`` service requests matching ``method`` and ``path_prefix``
        (any, when None) answer ``status`` (with ``retry_after_seconds``), or drop their
        connection, after holding them ``delay_seconds`` (real seconds, at most 60);
        ``after_apply`` fails them once the change is made, its answer lost; ``mangle`` (one
        of ``faults.MANGLES``) serves them, then answers with a broken body. A fault with a
        delay alone only slows them. Its id."""
        settings = {
            "method": method,
            "path_prefix": path_prefix,
            "count": count,
            "status": status,
            "delay_seconds": delay_seconds,
            "drop_connection": drop_connection,
            "after_apply": after_apply,
            "retry_after_seconds": retry_after_seconds,
            "mangle": mangle,
        }
        body = {name: value for name, value in settings.items() if value is not None}
        return str(self._admin("POST", "faults", body)["id"])

    def clear_faults(self) -> None:
        self._admin("DELETE", "faults")

    def requests(self) -> list[dict[str, Any]]:
        """The service requests since the last clear (the latest 10 000), oldest first: each
        one's ``method``, ``path``, ``query``, ``status`` (None for a dropped connection) and
        the fields it sent that the operation does not take (``ignored``)."""
        return list(self._admin("GET", "requests"))

    def clear_requests(self) -> None:
        self._admin("DELETE", "requests")

    def advance_clock(self, seconds: float) -> str:
        """Move the emulated clock ``seconds`` ahead (0 to ten years); the emulated time now,
        ISO 8601."""
        return str(self._admin("POST", "clock", {"advance_seconds": seconds})["now"])

    def reset(self) -> None:
        """Every account but the default one, resource, fault, log entry, S3 object and
        delivery gone; the clock back to the current time."""
        self._admin("POST", "reset")

    def accounts(self) -> list[dict[str, str]]:
        """Every account's ``id``, ``name`` and ``api_key``, the default one first."""
        return list(self._admin("GET", "accounts"))

    def add_account(self, name: str | None = None) -> dict[str, str]:
        """A new account (``account-<n>`` when not named), with fresh default networks."""
        return dict(self._admin("POST", "accounts", {} if name is None else {"name": name}))

    def set_quota(self, account_id: str | None = None, **limits: int) -> dict[str, Any]:
        """Set limits by quota name (``network_count=100``) for the account (the default one
        when None); its quota after the change."""
        account = self.accounts()[0]["id"] if account_id is None else account_id
        body = {f"{name}_limit": value for name, value in limits.items()}
        return dict(self._admin("PUT", f"accounts/{account}/quota", body))

    def deliveries(self) -> list[dict[str, Any]]:
        """The webhook deliveries (the latest 10 000): each attempt's webhook, event, status
        or error."""
        return list(self._admin("GET", "deliveries"))

    def export_state(self) -> dict[str, Any]:
        """The whole state as a seed (accounts, keys, quota, every resource with its id, the
        stores' objects): what ``load_state`` or ``Emulator(seed=...)`` takes."""
        return dict(self._admin("GET", "state"))

    def load_state(self, seed: dict[str, Any]) -> None:
        """Replace the whole state with ``seed``; a bad entry is refused (``ControlRefused``)
        in one line naming it."""
        self._admin("PUT", "state", seed)

    def _admin(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """Call ``/_emulator/<path>``: a change as JSON, as the endpoints require."""
        if not self.api_url:
            raise RuntimeError("the emulator is not served yet: start it first")
        data = None if method in ("GET", "HEAD") else json.dumps(body or {}).encode()
        request = urllib.request.Request(
            f"{self.api_url}/_emulator/{path}",
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
                return json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            refused = _error_body(error.read())
            raise ControlRefused(
                error.code, str(refused.get("code", "")), str(refused.get("reason", ""))
            ) from None


def _error_body(data: bytes) -> dict[str, Any]:
    try:
        body = json.loads(data)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
