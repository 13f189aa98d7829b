from __future__ import annotations

from altostratus.client._collection import Collection
from altostratus.client.models import Identity


class AccountAPI(Collection):
    """Who the key is (``/api/v1/whoami``); no region."""

    _regional = False

    def whoami(self) -> Identity:
        return self._one(Identity, "GET", "/api/v1/whoami")
