from __future__ import annotations

from collections.abc import Sequence

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.models import PlatformEnvironment

PATH = "/api/v1/environment"


class PlatformEnvironmentsAPI(Collection):
    """The platform environments of an organization's namespace (``/api/v1``); no region."""

    _regional = False

    def list(self) -> list[PlatformEnvironment]:
        """Every environment the key's organization has."""
        return self._many(PlatformEnvironment, "/api/v1/environments")

    def get(self, namespace: str, name: str) -> PlatformEnvironment:
        return self._one(PlatformEnvironment, "GET", _item(namespace, name))

    def create(
        self,
        namespace: str,
        name: str,
        *,
        description: str | None = None,
        clusters: Sequence[str] | None = None,
    ) -> PlatformEnvironment:
        body = fields(
            name=name,
            namespace=namespace,
            description=description,
            clusters=None if clusters is None else list(clusters),
        )
        return self._one(PlatformEnvironment, "POST", PATH, body=body)

    def replace(self, environment: PlatformEnvironment) -> PlatformEnvironment:
        """Send ``environment`` whole (``PUT``): its description and clusters change."""
        body = fields(
            name=environment.name,
            namespace=environment.namespace,
            description=environment.description,
            clusters=list(environment.clusters),
        )
        return self._one(PlatformEnvironment, "PUT", PATH, body=body)

    def attach(self, namespace: str, name: str, cluster: str) -> PlatformEnvironment:
        """Add ``cluster`` to the environment's (read, then sent whole)."""
        environment = self.get(namespace, name)
        if cluster in environment.clusters:
            return environment
        changed = environment.model_copy(update={"clusters": [*environment.clusters, cluster]})
        return self.replace(changed)

    def detach(self, namespace: str, name: str, cluster: str) -> PlatformEnvironment:
        """Remove ``cluster`` from the environment's (read, then sent whole)."""
        environment = self.get(namespace, name)
        if cluster not in environment.clusters:
            return environment
        kept = [c for c in environment.clusters if c != cluster]
        return self.replace(environment.model_copy(update={"clusters": kept}))

    def delete(self, namespace: str, name: str) -> None:
        self._send("DELETE", _item(namespace, name))


def _item(namespace: str, name: str) -> str:
    return f"{PATH}/{segment(namespace)}/{segment(name)}"
