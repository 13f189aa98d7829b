from __future__ import annotations

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.models import ReservedIp

PATH = "/v2/vpc/ips"


class ReservedIpsAPI(Collection):
    def list(self, *, region: str | None = None) -> list[ReservedIp]:
        """Every reserved IP of the region, across all pages."""
        return self._all_pages(ReservedIp, PATH, self._region(region))

    def get(self, id: str, *, region: str | None = None) -> ReservedIp:
        return self._one(ReservedIp, "GET", f"{PATH}/{segment(id)}", query=self._query(region))

    def create(self, *, name: str, region: str | None = None) -> ReservedIp:
        """Reserve an address; the answer leaves out `ip` (`get` has it)."""
        region = self._region(region)
        body = {"name": name, "region": region}
        return self._one(ReservedIp, "POST", PATH, query={"region": region}, body=body)

    def update(self, id: str, *, name: str | None = None, region: str | None = None) -> ReservedIp:
        region = self._region(region)
        path = f"{PATH}/{segment(id)}"
        body = fields(name=name, region=region)
        return self._one(ReservedIp, "PUT", path, query={"region": region}, body=body)

    def delete(self, id: str, *, region: str | None = None) -> None:
        self._send("DELETE", f"{PATH}/{segment(id)}", query=self._query(region))

    def assign(self, id: str, assign_to_id: str, *, region: str | None = None) -> None:
        """Attach the address to a load balancer, which then answers it as its `public_ip`."""
        self._action(id, region, action="assign", assign_to_id=assign_to_id)

    def unassign(self, id: str, *, region: str | None = None) -> None:
        """Detach the address; succeeds when it is not attached."""
        self._action(id, region, action="unassign")

    def _action(self, id: str, region: str | None, **body: str) -> None:
        region = self._region(region)
        path = f"{PATH}/{segment(id)}/actions"
        self._send("POST", path, query={"region": region}, body={**body, "region": region})
