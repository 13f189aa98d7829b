from __future__ import annotations

from altostratus.client._collection import Collection, segment
from altostratus.client.models import Cluster


class ClustersAPI(Collection):
    """An organization's managed clusters (``/api/v1/team-management``); no region."""

    _regional = False

    def list(self, org: str) -> list[Cluster]:
        return self._many(Cluster, f"/api/v1/team-management/{segment(org)}/clusters")
