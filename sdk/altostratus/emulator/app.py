"""The service's WSGI application: routing, authentication, parameters, region, the test
controls (faults, request log, rate limit), and the one place where a service request's errors
become the JSON error body (``EmulatorError`` through ``routes.answers.error_response``;
anything else is a bug, logged and answered 500).

Fields an operation does not take (see ``requests.bodies``) are ignored, as the service does,
and listed in the request's log entry; a ``strict`` emulator refuses them instead (400
``parameter_<name>_unknown``), so a test can catch a wrong call."""

from __future__ import annotations

import contextlib
import functools
import logging
import socket
import time
from collections.abc import Callable, Iterable
from typing import Any

from werkzeug.wrappers import Request, Response

from altostratus.emulator import openapi
from altostratus.emulator.control import endpoints, seed
from altostratus.emulator.control.endpoints import IPNetwork
from altostratus.emulator.control.faults import Fault, Faults, mangled_body
from altostratus.emulator.control.rate_limit import RateLimiter
from altostratus.emulator.control.request_log import RequestLog
from altostratus.emulator.errors import (
    EmulatorError,
    InjectedFault,
    RateLimited,
    Unauthorized,
)
from altostratus.emulator.reading.parts import (
    bearer_key,
    ignored_query,
    read_params,
    refuse_unknown,
    resolve_region,
)
from altostratus.emulator.reading.routing import Router
from altostratus.emulator.routes import ROUTES, login
from altostratus.emulator.routes.answers import error_response, json_response
from altostratus.emulator.routes.call import Call, EventSink, Route
from altostratus.emulator.serving import limits
from altostratus.emulator.serving.server import CONNECTION_SOCKET
from altostratus.emulator.state import State
from altostratus.emulator.state.accounts import Account
from altostratus.emulator.state.base import Effects

logger = logging.getLogger("altostratus.emulator")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
#: Set in a request's environ once a handler runs: only then may the request change the state.
_HANDLED = "altostratus.handled"


@functools.cache
def service_router() -> Router[Route]:
    """The router of ``ROUTES``, built once per process: it only reads, and building one costs
    tens of milliseconds (werkzeug compiles each rule), which every emulator would pay."""
    return Router(
        (route.method, prefix + route.path, route) for route in ROUTES for prefix in route.prefixes
    )


def _run(change: Callable[[], None]) -> None:
    change()


class EmulatorApp:
    def __init__(
        self,
        state: State,
        events: EventSink,
        *,
        rate_limit: float | None = None,
        strict: bool = False,
    ) -> None:
        self.state = state
        self.strict = strict
        self.events = events
        self.faults = Faults()
        self.log = RequestLog()
        self.limiter = RateLimiter(state.clock, rate_limit)
        self.router = service_router()
        self.url_map = self.router.url_map
        #: Called after every request that may have changed something (any method but GET, HEAD
        #: and OPTIONS that reached a handler), before it is answered: the state folder's save.
        self.on_change: Callable[[], None] | None = None
        #: The ``Host`` values naming the API where it is served (set by ``Emulator.start``);
        #: admin requests for any other host are refused. None: not served, not checked.
        self.served_hosts: frozenset[str] | None = None
        #: The networks whose callers the admin endpoints answer besides loopback ones
        #: (``--admin-from``: a container's host reaches it through Docker's bridge).
        self.admin_from: tuple[IPNetwork, ...] = ()
        #: Called with each service request's log entry, once answered, and the seconds it took
        #: (see ``serving.request_lines``; ``altostratus emulator`` prints it unless ``--quiet``).
        self.on_request: Callable[[dict[str, Any], float], None] | None = None
        #: The seed a reset returns to (``Emulator(seed=...)``, see ``control.seed``).
        self.seed: dict[str, Any] | None = None
        #: Runs a replacement of the whole state (a reset, a state import), which the state
        #: folder keeps as one change, all or nothing (set by ``Emulator`` with a state folder).
        self.replacing: Callable[[Callable[[], None]], None] = _run
        #: ``cli auth``'s logins waiting for their approval (see ``routes.login``).
        self.logins = login.DeviceLogins()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        request = Request(environ)
        if request.path == "/_emulator" or request.path.startswith("/_emulator/"):
            limit = endpoints.body_limit(request.path)
            response = self._buffered(environ, limit) or endpoints.dispatch(self, request)
            changed = response.status_code < 400
        elif request.path in login.PATHS:
            response = self._buffered(environ) or login.dispatch(self.logins, self.state, request)
            changed = False
        elif request.path == "/openapi.json" and request.method in ("GET", "HEAD"):
            response = json_response(openapi.document())
            changed = False
        else:
            response = self.serve(request)
            changed = bool(environ.get(_HANDLED))
        # A body not read (a request refused before it was needed: no key, say) is not waited
        # for past what a refusal allows; the connection is closed instead.
        if not limits.drain_unread(environ):
            response.headers["Connection"] = "close"
        # A request refused before any handler ran (no key, a bad body, the rate limit, an
        # injected fault) changed nothing: it costs the state folder nothing either.
        if self.on_change is not None and changed and request.method not in SAFE_METHODS:
            try:
                self.on_change()
            except Exception:
                logger.exception("the emulator could not save its state")
                response = error_response(
                    EmulatorError("The emulator could not save its state; see its log")
                )
        result: Iterable[bytes] = response(environ, start_response)
        return result

    @staticmethod
    def _buffered(environ: dict[str, Any], limit: int = limits.MAX_BODY_BYTES) -> Response | None:
        """Read the body whole within its bound; the refusal when it cannot be."""
        try:
            limits.buffer_body(environ, limit)
        except EmulatorError as error:
            return error_response(error)
        return None

    def reset(self) -> None:
        """Every account but the default one, resource, fault, log entry, S3 object and delivery
        gone; the clock back to the current time at the time scale the emulator started with;
        then the emulator's ``seed``, if it was given one, loaded again."""

        def reset() -> None:
            self.clear()
            if self.seed is not None:
                seed.apply(self, self.seed)

        self.replacing(reset)

    def clear(self) -> None:
        """``reset`` without the seed."""
        self.state.clock.restart()
        self.state.reset()
        self.faults.clear()
        self.log.clear()
        self.limiter.reset()
        self.state.buckets.reset()
        self.events.reset()

    def serve(self, request: Request) -> Response:
        started = time.monotonic()
        entry = self.log.add(request.method, request.path, request.args.to_dict())
        fault = self.faults.take(request.method, request.path)
        if fault is not None and fault.delay_seconds:
            time.sleep(fault.delay_seconds)
        if fault is not None and fault.fails and not fault.after_apply:
            response = self._fail(request, fault)
        else:
            response = self._answer(request, entry)
            if fault is not None and fault.fails:
                response = self._fail(request, fault)
            elif fault is not None and fault.mangle is not None:
                body, mimetype = mangled_body(fault.mangle, response.get_data())
                response = Response(body, status=response.status_code, content_type=mimetype)
        entry["status"] = (
            None if fault is not None and fault.drop_connection else response.status_code
        )
        if self.on_request is not None:
            self.on_request(dict(entry), time.monotonic() - started)
        return response

    def _fail(self, request: Request, fault: Fault) -> Response:
        if fault.drop_connection:
            connection = request.environ.get(CONNECTION_SOCKET)
            if connection is None:
                raise ConnectionAbortedError("the emulator dropped the connection (injected fault)")
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
            return Response(b"", status=500)
        assert fault.status is not None
        return error_response(InjectedFault(fault.status, fault.retry_after_seconds))

    def _answer(self, request: Request, entry: dict[str, Any]) -> Response:
        try:
            key = bearer_key(request)
            retry_after = self.limiter.check(key or f"address:{request.remote_addr}")
            if retry_after is not None:
                raise RateLimited("Too many requests; slow down", retry_after)
            account = self._authenticate(key)
            refused = self._buffered(request.environ)  # the body is read once the key is known
            if refused is not None:
                return refused
            route, args = self.router.match(request)
            params = read_params(request, route.accepts)
            ignored = {"body": params.ignored, "query": ignored_query(request, route.query_names)}
            self.log.note_ignored(entry, ignored)
            if self.strict:
                refuse_unknown(request, ignored)
            region = resolve_region(request, params, self.state.settings.regions)
            # The body's typed fields, read and checked before the lock is taken.
            fields = [] if route.body is None else [route.accepts.read(params)]
            call = Call(self.state, account, region, request.args.to_dict(), self.events)
            settled = Effects()  # the removals whose time has come, whatever the handler does
            request.environ[_HANDLED] = True
            try:
                with self.state.lock:
                    self.state.settle(settled)
                    body = route.handler(call, *args, *fields)
            finally:
                self.run_effects(settled)
            self.run_effects(call.effects)
            return json_response(body)
        except EmulatorError as error:
            return error_response(error)
        except Exception:
            logger.exception("the emulator failed on %s %s", request.method, request.path)
            return error_response(EmulatorError("The emulator failed unexpectedly"))

    def _authenticate(self, key: str | None) -> Account:
        with self.state.lock:
            account = None if key is None else self.state.accounts.by_key(key)
        if key is None:
            raise Unauthorized("Missing API key; send Authorization: bearer <API_KEY>")
        if account is None:
            # The service answers an unknown key so, and the Terraform provider tests for it.
            raise Unauthorized(
                "Unknown API key; send Authorization: bearer <API_KEY>",
                "database_account_not_found",
            )
        return account

    def run_effects(self, effects: Effects) -> None:
        for action in effects.actions:
            try:
                action()
            except Exception:
                logger.exception("an emulator side effect failed")
        for account_id, event, resource_id in effects.events:
            try:
                self.events.emit(account_id, event, resource_id)
            except Exception:
                logger.exception("emitting %s failed", event)
