"""What a route handler gets: the caller's account and region, its parameters, and where to put
side effects; and the route table entry type."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from altostratus.emulator.params import Params
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
    params: Params
    query: Mapping[str, str]
    events: EventSink
    effects: Effects = field(default_factory=Effects)

    @property
    def account_id(self) -> str:
        return self.account.id


Handler = Callable[..., Any]


@dataclass(frozen=True)
class Route:
    """``path`` is below ``/v2``; ``networking`` routes also answer below ``/v2/vpc``."""

    method: str
    path: str
    handler: Handler
    networking: bool = False


def pick(body: Mapping[str, Any], *names: str) -> dict[str, Any]:
    """The named fields of ``body``, in that order (for answers that carry only some)."""
    return {name: body[name] for name in names}


def without(body: Mapping[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in names}


SUCCESS = {"result": "success"}
