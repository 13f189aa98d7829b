from __future__ import annotations

from altostratus.client._collection import RegionalCollection, fields
from altostratus.client.models import Firewall, FirewallCreated, FirewallUpdated

PATH = "/v2/vpc/firewalls"


class FirewallsAPI(RegionalCollection[Firewall]):
    _path = PATH
    _model = Firewall

    def create(
        self,
        *,
        name: str,
        network_id: str | None = None,
        region: str | None = None,
        create_default_rules: bool | None = None,
    ) -> FirewallCreated:
        """Create a firewall on `network_id`, or on the region's default network."""
        body = fields(name=name, network_id=network_id, create_default_rules=create_default_rules)
        return self._one(FirewallCreated, "POST", PATH, region=region, body=body)

    def update(
        self, id: str, *, name: str | None = None, region: str | None = None
    ) -> FirewallUpdated:
        body = fields(name=name)
        return self._one(FirewallUpdated, "PUT", self._item(id), region=region, body=body)
