from __future__ import annotations

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.models import ApplicationDeployment

PATH = "/api/v1/application-deployment"


class ApplicationDeploymentsAPI(Collection):
    """Each platform application's deployment (``/api/v1``); no region."""

    _regional = False

    def deploy(
        self, namespace: str, application: str, *, environment: str, version: str | None = None
    ) -> ApplicationDeployment:
        """Deploy ``application`` (``version``, default the branch's head) to ``environment``,
        replacing its deployment if it has one."""
        body = fields(
            application=application, namespace=namespace, environment=environment, version=version
        )
        return self._one(ApplicationDeployment, "POST", f"{PATH}/deploy", body=body)

    def list(self, namespace: str) -> list[ApplicationDeployment]:
        return self._many(ApplicationDeployment, f"{PATH}/{segment(namespace)}")

    def get(self, namespace: str, name: str) -> ApplicationDeployment:
        path = f"{PATH}/{segment(namespace)}/{segment(name)}"
        return self._one(ApplicationDeployment, "GET", path)
