from __future__ import annotations

from altostratus.client._collection import RegionalCollection, fields
from altostratus.client.models import ReservedIp

PATH = "/v2/vpc/ips"


class ReservedIpsAPI(RegionalCollection[ReservedIp]):
    _path = PATH
    _model = ReservedIp
    _paginated = True

    def create(self, *, name: str | None = None, region: str | None = None) -> ReservedIp:
        """Reserve an address; the answer leaves out `ip` (`get` has it). Without `name`, the
        service names it by its address (as its Go client documents; the spec marks `name`
        required)."""
        return self._one(ReservedIp, "POST", PATH, region=region, body=fields(name=name))

    def update(self, id: str, *, name: str | None = None, region: str | None = None) -> ReservedIp:
        body = fields(name=name)
        return self._one(ReservedIp, "PUT", self._item(id), region=region, body=body)

    def assign(self, id: str, assign_to_id: str, *, region: str | None = None) -> None:
        """Attach the address to a load balancer, which then answers it as its `public_ip`."""
        self._action(id, region, action="assign", assign_to_id=assign_to_id)

    def unassign(self, id: str, *, region: str | None = None) -> None:
        """Detach the address; succeeds when it is not attached."""
        self._action(id, region, action="unassign")

    def _action(self, id: str, region: str | None, **body: str) -> None:
        self._send("POST", f"{self._item(id)}/actions", region=region, body=body)
