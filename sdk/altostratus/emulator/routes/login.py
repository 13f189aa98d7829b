"""``cli auth``'s login, as the emulator completes it: a device-code flow (RFC 8628's shape).

1. ``POST /api/v1/auth/device`` (no key) starts a login: a ``device_code`` for the command, a
   short ``user_code`` for the person, and the page to open (``verification_uri_complete``).
2. The page, ``GET /login/device?user_code=...``, served by the emulator, asks for the account's
   API key: on the emulator, typing the key stands for the real service's browser login (its
   accounts have a key and nothing else to log in with). ``POST /login/device`` approves.
3. ``POST /api/v1/auth/token`` with the ``device_code`` answers 400 ``authorization_pending``
   until then, 400 ``expired_token`` after ``EXPIRES_SECONDS`` emulated seconds, and, once
   approved, the session: the account's key, its organization and its user's address.

Logins waiting are kept in memory only: a restart forgets them, as a session's start is short.
"""

from __future__ import annotations

import html
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from werkzeug.wrappers import Request, Response

from altostratus.emulator.errors import BadRequest, EmulatorError, NotFound, Unauthorized
from altostratus.emulator.reading.parts import json_object
from altostratus.emulator.routes.answers import error_response, json_response
from altostratus.emulator.state import organizations
from altostratus.emulator.state.accounts import describe_quota

if TYPE_CHECKING:
    from altostratus.emulator.state import State

START_PATH = "/api/v1/auth/device"
TOKEN_PATH = "/api/v1/auth/token"
PAGE_PATH = "/login/device"
PATHS = (START_PATH, TOKEN_PATH, PAGE_PATH)
EXPIRES_SECONDS = 600
INTERVAL_SECONDS = 1
_LETTERS = "BCDFGHJKLMNPQRSTVWXZ"  # no vowels: no words; RFC 8628 section 6.1


@dataclass
class Pending:
    user_code: str
    expires: float
    account_id: str | None = None


class DeviceLogins:
    """The logins started and not yet taken, by device code."""

    def __init__(self) -> None:
        self.pending: dict[str, Pending] = {}

    def start(self, state: State, base_url: str) -> dict[str, Any]:
        now = state.clock.monotonic()
        self.pending = {k: p for k, p in self.pending.items() if p.expires > now}
        device_code = secrets.token_urlsafe(24)
        user_code = "-".join("".join(secrets.choice(_LETTERS) for _ in range(4)) for _ in range(2))
        self.pending[device_code] = Pending(user_code, now + EXPIRES_SECONDS)
        page = f"{base_url}{PAGE_PATH}"
        return {
            "device_code": device_code,
            "user_code": user_code,
            "verification_uri": page,
            "verification_uri_complete": f"{page}?user_code={user_code}",
            "expires_in": EXPIRES_SECONDS,
            "interval": INTERVAL_SECONDS,
        }

    def approve(self, state: State, user_code: str, api_key: str) -> str:
        """Approve the login of ``user_code`` for the account of ``api_key``: its name."""
        account = state.accounts.by_key(api_key) if api_key else None
        if account is None:
            raise Unauthorized("Unknown API key", "database_account_not_found")
        code = user_code.strip().upper()
        now = state.clock.monotonic()
        for pending in self.pending.values():
            if pending.user_code == code and pending.expires > now:
                pending.account_id = account.id
                return account.name
        raise NotFound(f"No login waits for the code {user_code!r}", "user_code_not_found")

    def token(self, state: State, device_code: str) -> dict[str, Any]:
        pending = self.pending.get(device_code)
        if pending is None:
            raise BadRequest("No such login; start again with cli auth", "invalid_grant")
        if pending.expires <= state.clock.monotonic():
            del self.pending[device_code]
            raise BadRequest("The login expired; start again with cli auth", "expired_token")
        if pending.account_id is None:
            raise BadRequest("The login is not approved yet", "authorization_pending")
        del self.pending[device_code]
        account = state.accounts.by_id[pending.account_id]
        return {
            "api_key": account.api_key,
            "organization": organizations.organization(account),
            "email": describe_quota(state, account)["default_user_email_address"],
        }


def dispatch(logins: DeviceLogins, state: State, request: Request) -> Response:
    try:
        with state.lock:
            if request.path == START_PATH and request.method == "POST":
                return json_response(logins.start(state, request.host_url.rstrip("/")))
            if request.path == TOKEN_PATH and request.method == "POST":
                body = json_object(request.get_data())
                code = body.get("device_code")
                if not isinstance(code, str) or not code:
                    raise BadRequest("The parameter device_code is required", "invalid_request")
                return json_response(logins.token(state, code))
            if request.path == PAGE_PATH and request.method == "GET":
                return _page(request.args.get("user_code", ""))
            if request.path == PAGE_PATH and request.method == "POST":
                form = request.form
                try:
                    name = logins.approve(state, form.get("user_code", ""), form.get("api_key", ""))
                except EmulatorError as error:
                    return _page(form.get("user_code", ""), str(error), error.status)
                return _html(f"<p>Logged in as {html.escape(name)}. Return to the terminal.</p>")
        raise NotFound(f"No endpoint at {request.method} {request.path}", "not_found")
    except EmulatorError as error:
        return error_response(error)


def _page(user_code: str, problem: str = "", status: int = 200) -> Response:
    shown = html.escape(user_code.strip().upper()[:9])
    note = f'<p role="alert">{html.escape(problem)}</p>' if problem else ""
    return _html(
        f"<h1>Log in the command line</h1>{note}"
        f'<form method="post" action="{PAGE_PATH}">'
        f'<label>Code <input name="user_code" value="{shown}" required></label>'
        '<label>API key <input name="api_key" type="password" required></label>'
        '<button type="submit">Log in</button></form>',
        status,
    )


def _html(body: str, status: int = 200) -> Response:
    page = f"<!doctype html><html><head><title>Log in</title></head><body>{body}</body></html>"
    headers = {"Content-Security-Policy": "default-src 'none'; form-action 'self'"}
    return Response(page, status=status, mimetype="text/html", headers=headers)
