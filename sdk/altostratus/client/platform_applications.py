from __future__ import annotations

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.models import PlatformApplication

PATH = "/api/v1/konstruct-application"


class PlatformApplicationsAPI(Collection):
    """The platform applications of an organization's namespace (``/api/v1``); no region."""

    _regional = False

    def register(
        self, namespace: str, name: str, *, repository: str, branch: str | None = None
    ) -> PlatformApplication:
        """Register ``repository`` (``branch``, default ``main``) as ``name``; registering a
        name again updates it."""
        body = fields(name=name, namespace=namespace, repository=repository, branch=branch)
        return self._one(PlatformApplication, "POST", "/api/v1/application/register", body=body)

    def list(self, namespace: str) -> list[PlatformApplication]:
        return self._many(PlatformApplication, f"{PATH}/{segment(namespace)}")

    def get(self, namespace: str, name: str) -> PlatformApplication:
        path = f"{PATH}/{segment(namespace)}/{segment(name)}"
        return self._one(PlatformApplication, "GET", path)
