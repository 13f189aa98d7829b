"""The admin endpoints under ``/_emulator/``: test controls, answered only to loopback callers
(and to those of the networks ``--admin-from`` names: a container's host is such a caller).

They need no service key and speak JSON. See the project's emulator documentation for the table.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from werkzeug.wrappers import Request, Response

from altostratus.emulator.clock import check_advance, check_time_scale
from altostratus.emulator.control import same_origin, seed, seed_export
from altostratus.emulator.control.faults import MANGLES, Faults
from altostratus.emulator.control.request_log import RequestLog
from altostratus.emulator.errors import BadRequest, EmulatorError, Forbidden, NotFound, invalid
from altostratus.emulator.reading.params import Params, parse_integer
from altostratus.emulator.reading.parts import json_object
from altostratus.emulator.reading.routing import Router
from altostratus.emulator.routes.answers import error_response, json_response
from altostratus.emulator.routes.call import EventSink
from altostratus.emulator.serving import limits
from altostratus.emulator.state import State
from altostratus.emulator.state.accounts import describe_quota
from altostratus.emulator.state.base import iso
from altostratus.emulator.vocabulary import QUOTA_NAMES

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class EmulatorApp(Protocol):
    """What the admin endpoints control: the emulator application as they see it."""

    state: State
    faults: Faults
    log: RequestLog
    events: EventSink
    served_hosts: frozenset[str] | None
    admin_from: tuple[IPNetwork, ...]
    on_request: Callable[[dict[str, Any], float], None] | None
    seed: dict[str, Any] | None
    replacing: Callable[[Callable[[], None]], None]

    def reset(self) -> None: ...

    def clear(self) -> None: ...

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any: ...


AdminHandler = Callable[..., Any]
#: The endpoint whose body is a whole state, bounded as one (see ``serving.limits``).
STATE_PATH = "/_emulator/state"
logger = logging.getLogger("altostratus.emulator")


def health(app: EmulatorApp, body: dict[str, Any]) -> Any:
    return {"status": "ok"}


def reset(app: EmulatorApp, body: dict[str, Any]) -> Any:
    if body:
        raise invalid(sorted(body)[0], "reset takes no settings")
    app.reset()
    return {"result": "success"}


def list_accounts(app: EmulatorApp, body: dict[str, Any]) -> Any:
    with app.state.lock:
        return [a.describe() for a in app.state.accounts.by_id.values()]


def create_account(app: EmulatorApp, body: dict[str, Any]) -> Any:
    params = Params(body, form=False)
    name = params.text("name", allow_empty=False)
    with app.state.lock:
        number = len(app.state.accounts.by_id) + 1
        return app.state.add_account(name or f"account-{number}").describe()


def set_quota(app: EmulatorApp, body: dict[str, Any], account_id: str) -> Any:
    allowed = {f"{name}_limit" for name in QUOTA_NAMES}
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise invalid(unknown[0], f"{unknown[0]} is not a quota limit")
    limits = {}
    for field, value in body.items():
        number = parse_integer(value)
        if number is None or number < 0:
            raise invalid(field, f"{field} must be a whole number from 0")
        limits[field.removesuffix("_limit")] = number
    with app.state.lock:
        account = app.state.accounts.by_id.get(account_id)
        if account is None:
            raise NotFound("The account was not found", "database_account_not_found")
        account.limits.update(limits)
        return describe_quota(app.state, account)


def export_state(app: EmulatorApp, body: dict[str, Any]) -> Any:
    return seed_export.export(app.state)


def load_state(app: EmulatorApp, body: dict[str, Any]) -> Any:
    """Replace the whole state with the seed in the body (see ``seed``)."""
    try:
        seed.load(app, body)
    except seed.SeedError as error:
        raise BadRequest(str(error), "seed_invalid") from None
    return {"result": "success"}


def _clock(app: EmulatorApp) -> dict[str, Any]:
    clock = app.state.clock
    return {"now": iso(clock.now()), "time_scale": clock.time_scale}


def get_clock(app: EmulatorApp, body: dict[str, Any]) -> Any:
    return _clock(app)


def move_clock(app: EmulatorApp, body: dict[str, Any]) -> Any:
    """Validates both values before changing either: finite numbers within the clock's bounds."""
    unknown = sorted(set(body) - {"advance_seconds", "time_scale"})
    if unknown:
        raise invalid(unknown[0], f"{unknown[0]} is not a clock setting")
    clock = app.state.clock
    try:
        seconds = check_advance(body.get("advance_seconds", 0))
    except ValueError as error:
        raise invalid("advance_seconds", str(error)) from None
    scale = body.get("time_scale")
    try:
        scale = None if scale is None else check_time_scale(scale)
    except ValueError as error:
        raise invalid("time_scale", str(error)) from None
    try:
        clock.advance(seconds)
    except ValueError as error:
        raise invalid("advance_seconds", str(error)) from None
    if scale is not None:
        clock.time_scale = scale
    return _clock(app)


def _optional(body: dict[str, Any], name: str, *kinds: type) -> Any:
    value = body.get(name)
    if value is None:
        return None
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise invalid(name, f"{name} has the wrong type")
    return value


#: The longest a fault holds a request, in real seconds: each held request holds one of the
#: server's bounded threads, so a longer delay could stall the emulator for good.
MAX_FAULT_DELAY_SECONDS = 60
#: The largest ``Retry-After`` a fault answers with: a day.
MAX_RETRY_AFTER_SECONDS = 86_400


def add_fault(app: EmulatorApp, body: dict[str, Any]) -> Any:
    known = {
        "method",
        "path_prefix",
        "count",
        "status",
        "delay_seconds",
        "drop_connection",
        "after_apply",
        "retry_after_seconds",
        "mangle",
    }
    unknown = sorted(set(body) - known)
    if unknown:
        raise invalid(unknown[0], f"{unknown[0]} is not a fault setting")
    settings = {
        "method": _optional(body, "method", str),
        "path_prefix": _optional(body, "path_prefix", str),
        "count": 1 if body.get("count") is None else _optional(body, "count", int),
        "status": _optional(body, "status", int),
        "delay_seconds": _optional(body, "delay_seconds", int, float),
        "drop_connection": bool(_optional(body, "drop_connection", bool)),
        "after_apply": bool(_optional(body, "after_apply", bool)),
        "retry_after_seconds": _optional(body, "retry_after_seconds", int),
        "mangle": _optional(body, "mangle", str),
    }
    if settings["count"] < 1:
        raise invalid("count", "count must be at least 1")
    if settings["status"] is not None and not 400 <= settings["status"] <= 599:
        raise invalid("status", "status must be an error status from 400 to 599")
    delay = settings["delay_seconds"]
    if delay is not None and not 0 <= delay <= MAX_FAULT_DELAY_SECONDS:
        raise invalid(
            "delay_seconds",
            f"delay_seconds must be from 0 to {MAX_FAULT_DELAY_SECONDS} (real seconds)",
        )
    if settings["mangle"] is not None:
        if settings["mangle"] not in MANGLES:
            raise invalid("mangle", f"mangle must be one of {', '.join(MANGLES)}")
        if settings["status"] is not None or settings["drop_connection"]:
            raise invalid(
                "mangle", "mangle answers the request: leave out status and drop_connection"
            )
    wait = settings["retry_after_seconds"]
    if wait is not None and not 0 <= wait <= MAX_RETRY_AFTER_SECONDS:
        raise invalid(
            "retry_after_seconds",
            f"retry_after_seconds must be from 0 to {MAX_RETRY_AFTER_SECONDS}",
        )
    return {"id": app.faults.add(**settings).id}


def clear_faults(app: EmulatorApp, body: dict[str, Any]) -> Any:
    app.faults.clear()
    return {"result": "success"}


def list_requests(app: EmulatorApp, body: dict[str, Any]) -> Any:
    return app.log.entries()


def clear_requests(app: EmulatorApp, body: dict[str, Any]) -> Any:
    app.log.clear()
    return {"result": "success"}


def list_deliveries(app: EmulatorApp, body: dict[str, Any]) -> Any:
    return app.events.deliveries()


_ROUTER: Router[AdminHandler] = Router(
    [
        ("GET", "/_emulator/health", health),
        ("POST", "/_emulator/reset", reset),
        ("GET", "/_emulator/accounts", list_accounts),
        ("POST", "/_emulator/accounts", create_account),
        ("PUT", "/_emulator/accounts/{account_id}/quota", set_quota),
        ("GET", "/_emulator/clock", get_clock),
        ("POST", "/_emulator/clock", move_clock),
        ("POST", "/_emulator/faults", add_fault),
        ("DELETE", "/_emulator/faults", clear_faults),
        ("GET", "/_emulator/requests", list_requests),
        ("DELETE", "/_emulator/requests", clear_requests),
        ("GET", "/_emulator/deliveries", list_deliveries),
        ("GET", STATE_PATH, export_state),
        ("PUT", STATE_PATH, load_state),
    ],
    what="admin endpoint",
)


def admin_network(text: str) -> IPNetwork:
    """One network of ``--admin-from``: an address or a CIDR block (``172.16.0.0/12``)."""
    try:
        return ipaddress.ip_network(text.strip(), strict=True)
    except ValueError:
        raise ValueError(
            f"{text!r} is not an address or a network (such as 172.16.0.0/12)"
        ) from None


def admin_networks(texts: Iterable[str]) -> tuple[IPNetwork, ...]:
    return tuple(admin_network(text) for text in texts)


def _admitted(address: str | None, networks: tuple[IPNetwork, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or any(ip in network for network in networks)


def body_limit(path: str) -> int:
    """The most bytes an admin request's body may hold."""
    return limits.MAX_STATE_BYTES if path == STATE_PATH else limits.MAX_BODY_BYTES


def _body(request: Request) -> dict[str, Any]:
    if request.method not in ("POST", "PUT"):
        return {}
    return json_object(request.get_data(cache=True), whole_state=request.path == STATE_PATH)


def dispatch(app: EmulatorApp, request: Request) -> Response:
    try:
        if not _admitted(request.remote_addr, app.admin_from):
            raise Forbidden(
                "The emulator's admin endpoints answer loopback callers only, and those of "
                "the networks --admin-from names"
            )
        same_origin.check(request, app.served_hosts)
        handler, args = _ROUTER.match(request)
        same_origin.check_json_body(request)
        return json_response(handler(app, _body(request), *args))
    except EmulatorError as error:
        return error_response(error)
    except Exception:
        logger.exception("the admin endpoint failed on %s %s", request.method, request.path)
        return error_response(EmulatorError("The emulator failed unexpectedly"))
