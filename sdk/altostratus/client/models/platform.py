"""The platform's records under ``/api/v1``: environments, the organization's clusters,
applications and their deployments. The spec shows none of these payloads; the fields are the
product's decision (docs/command-line-client.md), and any field the service adds is kept
(``model_extra``), so the command line's ``--json`` prints what was answered."""

from __future__ import annotations

from pydantic import ConfigDict

from altostratus.client.models._base import ResponseModel


class PlatformRecord(ResponseModel):
    model_config = ConfigDict(extra="allow", coerce_numbers_to_str=True)


class PlatformEnvironment(PlatformRecord):
    """A named place in the organization's namespace that applications deploy to."""

    name: str
    namespace: str
    id: str | None = None
    description: str | None = None
    clusters: list[str] = []
    created_at: str | None = None


class Cluster(PlatformRecord):
    """A managed cluster of the organization, in one region."""

    name: str
    region: str | None = None
    organization: str | None = None
    kubernetes_version: str | None = None
    status: str | None = None


class PlatformApplication(PlatformRecord):
    """A repository and branch registered under a name."""

    name: str
    namespace: str
    id: str | None = None
    repository: str | None = None
    branch: str | None = None
    created_at: str | None = None


class ApplicationDeployment(PlatformRecord):
    """An application's deployment to an environment; ``status`` is ``pending``,
    ``progressing`` or ``healthy``."""

    name: str
    namespace: str
    environment: str
    id: str | None = None
    clusters: list[str] = []
    version: str | None = None
    status: str | None = None
    created_at: str | None = None
    deployed_at: str | None = None
