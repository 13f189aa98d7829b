"""Application deployments (``/api/v1/application-deployment``): an application's one
deployment to an environment of its namespace, its phase following the emulator's clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from altostratus.emulator.errors import Conflict, not_found
from altostratus.emulator.reading.bodies import ApplicationDeploy
from altostratus.emulator.state import organizations
from altostratus.emulator.state.base import Effects, Record, Store, entry, iso, new_id
from altostratus.emulator.state.platform_environments import NAMESPACED

PHASES = (("pending", 0.0), ("progressing", 5.0), ("healthy", 30.0))
"""Each phase and the emulated seconds after a deploy from which it holds."""


@dataclass
class ApplicationDeployment(Record):
    application: str
    namespace: str
    environment: str
    version: str
    created_at: str
    deployed_at: str
    """When the latest deploy started: the phase counts from here."""


def phase_at(started: str, now: datetime) -> str:
    """The phase of a deployment started at ``started`` (ISO 8601), at ``now``."""
    elapsed = (now - datetime.fromisoformat(started)).total_seconds()
    return [name for name, after in PHASES if elapsed >= after][-1]


class ApplicationDeployments(Store[ApplicationDeployment, ApplicationDeploy, ApplicationDeploy]):
    """Deploying an application that has a deployment replaces it (``update``): a new version
    or environment, and its phases from the start."""

    kind = "deployment"
    label = "application deployment"
    indexed = ("application",)

    def describe(self, deployment: ApplicationDeployment) -> dict[str, Any]:
        environment = self.state.platform_environments
        clusters: tuple[str, ...] = ()
        for found in environment.records.find("name", deployment.environment):
            if found.account_id == deployment.account_id:
                clusters = found.clusters
        return {
            "id": deployment.id,
            "name": deployment.application,
            "namespace": deployment.namespace,
            "environment": deployment.environment,
            "clusters": list(clusters),
            "version": deployment.version,
            "status": phase_at(deployment.deployed_at, self.state.clock.now()),
            "created_at": deployment.created_at,
            "deployed_at": deployment.deployed_at,
        }

    def seed_entry(self, deployment: ApplicationDeployment) -> dict[str, Any]:
        return entry(
            deployment,
            application=deployment.application,
            namespace=deployment.namespace,
            environment=deployment.environment,
            version=deployment.version,
        )

    def find(self, account_id: str, application: str) -> ApplicationDeployment | None:
        return next(
            (
                d
                for d in self.records.find("application", application)
                if d.account_id == account_id
            ),
            None,
        )

    def named(self, account_id: str, namespace: str, name: str) -> ApplicationDeployment:
        organizations.require(self.state.accounts.by_id[account_id], namespace, "namespace")
        found = self.find(account_id, name)
        if found is None:
            raise not_found(self.kind, f"deployment of {name!r}")
        return found

    def check(self, account_id: str, fields: ApplicationDeploy) -> None:
        """The application registered; the environment there, with a cluster attached."""
        self.state.platform_applications.named(account_id, fields.namespace, fields.application)
        environment = self.state.platform_environments.named(
            account_id, fields.namespace, fields.environment
        )
        if not environment.clusters:
            raise Conflict(
                f"The platform environment {environment.name!r} has no cluster attached; "
                "attach one first",
                "database_environment_no_cluster",
            )

    def create(
        self, account_id: str, region: str, effects: Effects, fields: ApplicationDeploy
    ) -> ApplicationDeployment:
        self.check(account_id, fields)
        now = iso(self.state.clock.now())
        deployment = ApplicationDeployment(
            id=new_id(),
            account_id=account_id,
            region=NAMESPACED,
            application=fields.application,
            namespace=fields.namespace,
            environment=fields.environment,
            version=fields.version or "HEAD",
            created_at=now,
            deployed_at=now,
        )
        self.records[deployment.id] = deployment
        return deployment

    def update(
        self, deployment: ApplicationDeployment, effects: Effects, changes: ApplicationDeploy
    ) -> None:
        self.check(deployment.account_id, changes)
        deployment.environment = changes.environment
        deployment.version = changes.version or "HEAD"
        deployment.deployed_at = iso(self.state.clock.now())

    def remove(self, deployment: ApplicationDeployment, effects: Effects) -> None:
        del self.records[deployment.id]
