from __future__ import annotations

from altostratus.client._collection import Collection, fields
from altostratus.client.models import Quota


class QuotaAPI(Collection):
    """The account's quota, whatever the region: these calls send no region."""

    _regional = False

    def get(self, *, name: str | None = None) -> Quota:
        """The account's limits and usage; `name` selects another account (system keys only)."""
        return self._one(Quota, "GET", "/v2/quota", query=fields(name=name))
