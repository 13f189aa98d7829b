from __future__ import annotations

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.models import AppEnvironment


class AppEnvironmentsAPI(Collection):
    """The organization's hosting environments (``/api/v1/app-environments``); no region."""

    _regional = False

    def list(self, org: str) -> list[AppEnvironment]:
        return self._many(AppEnvironment, f"/api/v1/app-environments/{segment(org)}")

    def create(self, org: str, name: str, *, region: str | None = None) -> AppEnvironment:
        body = fields(name=name, organization=org, region=region)
        return self._one(AppEnvironment, "POST", "/api/v1/app-environments", body=body)
