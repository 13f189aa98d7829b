from __future__ import annotations

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.models import Firewall, FirewallCreated

PATH = "/v2/vpc/firewalls"


class FirewallsAPI(Collection):
    def list(self, *, region: str | None = None) -> list[Firewall]:
        return self._many(Firewall, PATH, query=self._query(region))

    def get(self, id: str, *, region: str | None = None) -> Firewall:
        return self._one(Firewall, "GET", f"{PATH}/{segment(id)}", query=self._query(region))

    def create(
        self,
        *,
        name: str,
        network_id: str,
        region: str | None = None,
        create_default_rules: bool | None = None,
    ) -> FirewallCreated:
        region = self._region(region)
        body = fields(
            name=name,
            network_id=network_id,
            region=region,
            create_default_rules=create_default_rules,
        )
        return self._one(FirewallCreated, "POST", PATH, query={"region": region}, body=body)

    def update(
        self, id: str, *, name: str | None = None, region: str | None = None
    ) -> FirewallCreated:
        region = self._region(region)
        path = f"{PATH}/{segment(id)}"
        body = fields(name=name, region=region)
        return self._one(FirewallCreated, "PUT", path, query={"region": region}, body=body)

    def delete(self, id: str, *, region: str | None = None) -> None:
        self._send("DELETE", f"{PATH}/{segment(id)}", query=self._query(region))
