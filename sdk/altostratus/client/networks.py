from __future__ import annotations

from collections.abc import Sequence

from altostratus.client._collection import RegionalCollection, fields
from altostratus.client.models import Network, NetworkCreated, NetworkUpdated

PATH = "/v2/vpc/networks"


class NetworksAPI(RegionalCollection[Network]):
    _path = PATH
    _model = Network

    def create(
        self,
        *,
        label: str,
        region: str | None = None,
        ipv4_enabled: bool | None = None,
        cidr_v4: str | None = None,
        nameservers_v4: Sequence[str] | str | None = None,
    ) -> NetworkCreated:
        """Create a network; `nameservers_v4` is sent as comma-separated text."""
        if nameservers_v4 is not None and not isinstance(nameservers_v4, str):
            nameservers_v4 = ",".join(nameservers_v4)
        body = fields(
            label=label,
            ipv4_enabled=ipv4_enabled,
            cidr_v4=cidr_v4,
            nameservers_v4=nameservers_v4,
        )
        return self._one(NetworkCreated, "POST", PATH, region=region, body=body)

    def update(
        self,
        id: str,
        *,
        label: str,
        region: str | None = None,
        nameservers_v4: Sequence[str] | str | None = None,
    ) -> NetworkUpdated:
        """Rename a network (the service requires the label on every update) and, when given,
        replace its name servers (sent as comma-separated text)."""
        if nameservers_v4 is not None and not isinstance(nameservers_v4, str):
            nameservers_v4 = ",".join(nameservers_v4)
        body = fields(label=label, nameservers_v4=nameservers_v4)
        return self._one(NetworkUpdated, "PUT", self._item(id), region=region, body=body)
