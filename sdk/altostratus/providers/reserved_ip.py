"""ReservedIp: a public address kept across resources, optionally assigned to a load balancer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulumi

from altostratus.client.errors import OutcomeUnknownError
from altostratus.providers import _regions, _validate
from altostratus.providers._base import Provider
from altostratus.providers._inputs import arg, inputs_of, region_arg
from altostratus.providers._records import RegionalRecords
from altostratus.providers._resource import AltostratusResource

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.client import ReservedIp as ReservedIpRecord
    from altostratus.client.reserved_ips import ReservedIpsAPI

_ASSIGN_ATTEMPTS = 3


@dataclass(kw_only=True)
class ReservedIpArgs:
    name: pulumi.Input[str] | None = arg(_validate.text)
    """Unique per region; ``<resource name>-<7 random characters>`` when left out."""
    region: pulumi.Input[str] | None = region_arg()
    assign_to_id: pulumi.Input[str] | None = arg(_validate.text, keep_when_absent=False)
    """The load balancer to attach the address to (not a field of the create request: it is
    assigned after); leaving it out detaches the address."""


def _assign(api: Client, id_: str, target: str, region: str) -> None:
    """Assign the address, sending again when an answer is lost: an assignment is idempotent."""
    for attempt in range(1, _ASSIGN_ATTEMPTS + 1):
        try:
            api.reserved_ips.assign(id_, target, region=region)
            return
        except OutcomeUnknownError:
            if attempt == _ASSIGN_ATTEMPTS:
                raise


class ReservedIpProvider(RegionalRecords["ReservedIpRecord"], Provider["ReservedIpRecord"]):
    removal_takes_time = True
    kind = "reserved IP"
    naming = "name"
    reference = "assign_to_id"
    referred_kind = "load balancer"
    fields = inputs_of(ReservedIpArgs)

    def _records(self, api: Client) -> ReservedIpsAPI:
        return api.reserved_ips

    def _refers_in(self, api: Client, value: str, region: str) -> bool:
        return _regions.found(lambda: api.load_balancers.get(value, region=region))

    def _post(self, api: Client, inputs: dict[str, Any]) -> ReservedIpRecord:
        return api.reserved_ips.create(name=inputs["name"], region=self._region(inputs))

    def _settle(self, api: Client, inputs: dict[str, Any], record: Any) -> dict[str, Any]:
        if inputs.get("assign_to_id"):
            _assign(api, record.id, inputs["assign_to_id"], self._region(inputs))
        return self._fetch(api, record.id, inputs)

    def _live(self, api: Client, record: ReservedIpRecord, props: dict[str, Any]) -> dict[str, Any]:
        assigned = record.assigned_to.id if record.assigned_to is not None else None
        return {
            **super()._live(api, record, props),
            "assigned_to_id": assigned,
            "assign_to_id": assigned,
        }

    def _put(
        self, api: Client, id_: str, changes: dict[str, Any], props: dict[str, Any]
    ) -> ReservedIpRecord:
        return api.reserved_ips.update(id_, name=changes["name"], region=self._region(props))

    def _apply(
        self, api: Client, id_: str, olds: dict[str, Any], news: dict[str, Any], changed: set[str]
    ) -> dict[str, Any]:
        """A rename, then the assignment: the old one released before the new one is made."""
        region = self._region(news)
        if "name" in changed:
            self._put(api, id_, {"name": news["name"]}, news)
        if "assign_to_id" in changed:
            if olds.get("assign_to_id"):
                api.reserved_ips.unassign(id_, region=region)
            if news.get("assign_to_id"):
                _assign(api, id_, news["assign_to_id"], region)
        return self._fetch(api, id_, news)


class ReservedIp(AltostratusResource[ReservedIpArgs], module="altostratus", name="ReservedIp"):
    """A reserved IP. Changing ``region`` replaces it; ``name`` updates in place, and
    ``assign_to_id`` assigns, moves or unassigns the address."""

    _provider_class = ReservedIpProvider
    _args_class = ReservedIpArgs

    name: pulumi.Output[str]
    ip: pulumi.Output[str]
    """The reserved public address."""
    assigned_to: pulumi.Output[dict[str, Any]]
    """What the address is assigned to, as the service describes it."""
    assigned_to_id: pulumi.Output[str]
    """The id of the balancer it is assigned to; None when unassigned."""
    assign_to_id: pulumi.Output[str]
    region: pulumi.Output[str]

    # <generated: ReservedIp.__init__>
    def __init__(
        self,
        resource_name: str,
        args: ReservedIpArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        name: pulumi.Input[str] | None = None,
        region: pulumi.Input[str] | None = None,
        assign_to_id: pulumi.Input[str] | None = None,
    ) -> None:
        self._declare(
            resource_name,
            args,
            opts,
            name=name,
            region=region,
            assign_to_id=assign_to_id,
        )

    # </generated>
