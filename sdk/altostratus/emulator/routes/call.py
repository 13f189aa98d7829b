"""What a route handler gets: the caller's account and region, the query, and where to put side
effects (the body comes read into its typed fields, see ``Route``); and the route table entry
type."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from altostratus.emulator.reading.bodies import BODIES, NO_BODY
from altostratus.emulator.reading.fields import Body
from altostratus.emulator.state import State
from altostratus.emulator.state.accounts import Account
from altostratus.emulator.state.base import Effects
from altostratus.emulator.webhooks import DeliveryTarget


class EventSink(Protocol):
    """The webhook worker as the service drives it."""

    def emit(self, account_id: str, event: str, resource_id: str) -> None: ...

    def send_test(self, target: DeliveryTarget) -> None: ...

    def deliveries(self) -> list[dict[str, object]]: ...

    def reset(self) -> None: ...


@dataclass
class Call:
    state: State
    account: Account
    region: str
    query: Mapping[str, str]
    events: EventSink
    effects: Effects = field(default_factory=Effects)

    @property
    def account_id(self) -> str:
        return self.account.id


Handler = Callable[..., Any]


@dataclass(frozen=True)
class Route:
    """One operation of the service: what serves it and what documents it.

    ``path`` is below ``prefix`` (``/v2``; ``/api/v1`` for the platform's) and written as in
    OpenAPI (``/networks/{id}``); the handler gets the
    path's values in their order after the ``Call``, then, for an operation with a ``body`` (the
    type of its fields, a dataclass of ``bodies``), the body read into that type. ``networking``
    routes also answer below ``/v2/vpc``. ``answer`` names a schema of ``openapi.SCHEMAS``
    (``[Name]`` is an array of ``Name``). Every operation takes ``region`` in the query (the
    official clients send it on every call; ``regional`` ones use it); ``paged`` lists take
    ``page`` and ``per_page``; ``query`` names any other query fields.
    """

    method: str
    path: str
    handler: Handler
    summary: str
    answer: str
    body: type[Any] | None = None
    networking: bool = False
    paged: bool = False
    regional: bool = True
    query: tuple[str, ...] = ()
    prefix: str = "/v2"
    """The API the operation belongs to: ``/v2``, or the platform's ``/api/v1``."""

    @property
    def prefixes(self) -> tuple[str, ...]:
        return ("/v2/vpc", "/v2") if self.networking else (self.prefix,)

    @property
    def query_names(self) -> tuple[str, ...]:
        """Every query field the operation takes."""
        return ("region", *(("page", "per_page") if self.paged else ()), *self.query)

    @property
    def accepts(self) -> Body[Any]:
        return NO_BODY if self.body is None else BODIES[self.body.__name__]


H = TypeVar("H", bound=Handler)


class RouteTable(list[Route]):
    """The routes of one collection, each declared by a decorator on its handler::

    ROUTES = RouteTable(networking=True)

    @ROUTES.add("GET", "/networks/{id}", "Retrieve a network", "Network")
    def get_network(call: Call, network_id: str) -> dict[str, Any]: ...

    @ROUTES.add("PUT", "/networks/{id}", "Relabel a network", "NetworkUpdated", NetworkUpdate)
    def update_network(call: Call, network_id: str, changes: NetworkUpdate) -> dict[str, Any]:
    """

    def __init__(
        self, *, networking: bool = False, regional: bool = True, prefix: str = "/v2"
    ) -> None:
        super().__init__()
        self.networking = networking
        self.regional = regional
        self.prefix = prefix

    def add(
        self,
        method: str,
        path: str,
        summary: str,
        answer: str,
        body: type[Any] | None = None,
        *,
        paged: bool = False,
        query: tuple[str, ...] = (),
    ) -> Callable[[H], H]:
        def declare(handler: H) -> H:
            route = Route(
                method,
                path,
                handler,
                summary,
                answer,
                body,
                self.networking,
                paged,
                self.regional,
                query,
                self.prefix,
            )
            self.append(route)
            return handler

        return declare


def pick(body: Mapping[str, Any], *names: str) -> dict[str, Any]:
    """The named fields of ``body``, in that order (for answers that carry only some)."""
    return {name: body[name] for name in names}


def without(body: Mapping[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in names}


SUCCESS = {"result": "success"}
