"""ReservedIp: a public address kept across resources, optionally assigned to a load balancer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulumi

from altostratus.client.errors import OutcomeUnknownError
from altostratus.providers import _validate
from altostratus.providers._base import Provider
from altostratus.providers._inputs import Field, region_field
from altostratus.providers._resource import AltostratusResource

if TYPE_CHECKING:
    from altostratus.client import Client

_ASSIGN_ATTEMPTS = 3


@dataclass
class ReservedIpArgs:
    name: pulumi.Input[str] | None = None
    """Unique per region; ``<resource name>-<7 random characters>`` when left out."""
    region: pulumi.Input[str] | None = None
    assign_to_id: pulumi.Input[str] | None = None
    """The load balancer to attach the address to; leaving it out detaches the address."""


def _assign(api: Client, id_: str, target: str, where: dict[str, Any]) -> None:
    """Assign the address, sending again when an answer is lost: an assignment is idempotent."""
    for attempt in range(1, _ASSIGN_ATTEMPTS + 1):
        try:
            api.reserved_ips.assign(id_, target, **where)
            return
        except OutcomeUnknownError:
            if attempt == _ASSIGN_ATTEMPTS:
                raise


class ReservedIpProvider(Provider):
    kind = "reserved IP"
    collection = "reserved_ips"
    naming = "name"
    fields = (
        Field("name", _validate.text, required=True),
        region_field(),
        Field("assign_to_id", _validate.text, keep_when_absent=False),
    )

    def _post(self, api: Client, inputs: dict[str, Any]) -> Any:
        return api.reserved_ips.create(name=inputs["name"], **self._where(inputs))

    def _settle(self, api: Client, inputs: dict[str, Any], record: Any) -> dict[str, Any]:
        if inputs.get("assign_to_id"):
            _assign(api, record.id, inputs["assign_to_id"], self._where(inputs))
        return self._fetch(api, record.id, inputs)

    def _live(self, api: Client, record: Any, props: dict[str, Any]) -> dict[str, Any]:
        assigned = record.assigned_to.id if record.assigned_to is not None else None
        return {
            **super()._live(api, record, props),
            "assigned_to_id": assigned,
            "assign_to_id": assigned,
        }

    def _apply(
        self, api: Client, id_: str, olds: dict[str, Any], news: dict[str, Any], changed: set[str]
    ) -> dict[str, Any]:
        where = self._where(news)
        if "name" in changed:
            api.reserved_ips.update(id_, name=news["name"], **where)
        if "assign_to_id" in changed:
            if olds.get("assign_to_id"):
                api.reserved_ips.unassign(id_, **where)
            if news.get("assign_to_id"):
                _assign(api, id_, news["assign_to_id"], where)
        return self._fetch(api, id_, news)


class ReservedIp(AltostratusResource[ReservedIpArgs], module="altostratus", name="ReservedIp"):
    """A reserved IP. Changing ``region`` replaces it; ``name`` updates in place, and
    ``assign_to_id`` assigns, moves or unassigns the address."""

    _provider_class = ReservedIpProvider
    _args_class = ReservedIpArgs

    name: pulumi.Output[str]
    ip: pulumi.Output[str]
    assigned_to: pulumi.Output[dict[str, Any]]
    assigned_to_id: pulumi.Output[str]
    assign_to_id: pulumi.Output[str]
    region: pulumi.Output[str]
