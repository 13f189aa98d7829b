from __future__ import annotations

from altostratus.client._collection import Collection
from altostratus.client.models import Region

PATH = "/v2/regions"


class RegionsAPI(Collection):
    """The service's regions; they belong to no region, so these calls send none."""

    _regional = False

    def list(self) -> list[Region]:
        """Every region, the account's default marked ``default=True``."""
        return self._many(Region, PATH)

    def default(self) -> Region | None:
        """The account's default region, when the service marks one."""
        return next((region for region in self.list() if region.default), None)
