"""Platform applications (``/api/v1/application/register``, listed under
``/api/v1/konstruct-application``): a repository and branch registered under a name in an
organization's namespace."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from altostratus.emulator.errors import Conflict, not_found
from altostratus.emulator.reading.bodies import ApplicationRegister
from altostratus.emulator.state import organizations
from altostratus.emulator.state.base import Effects, Record, Store, entry, iso, new_id
from altostratus.emulator.state.platform_environments import NAMESPACED

DEFAULT_BRANCH = "main"


@dataclass
class PlatformApplication(Record):
    name: str
    namespace: str
    repository: str
    branch: str
    created_at: str

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "namespace": self.namespace,
            "repository": self.repository,
            "branch": self.branch,
            "created_at": self.created_at,
        }


class PlatformApplications(Store[PlatformApplication, ApplicationRegister, ApplicationRegister]):
    """Registering a name the namespace has updates that application (``update``)."""

    kind = "application"
    label = "platform application"
    indexed = ("name",)

    def answer_inputs(self, record: Record) -> Hashable:
        return ()

    def seed_entry(self, application: PlatformApplication) -> dict[str, Any]:
        return entry(
            application,
            name=application.name,
            namespace=application.namespace,
            repository=application.repository,
            branch=application.branch,
        )

    def named(self, account_id: str, namespace: str, name: str) -> PlatformApplication:
        organizations.require(self.state.accounts.by_id[account_id], namespace, "namespace")
        found = self.find(account_id, name)
        if found is None:
            raise not_found(self.kind, f"{self.label} {name!r}")
        return found

    def create(
        self, account_id: str, region: str, effects: Effects, fields: ApplicationRegister
    ) -> PlatformApplication:
        organizations.require(self.state.accounts.by_id[account_id], fields.namespace, "namespace")
        if self.find(account_id, fields.name) is not None:
            raise Conflict(
                f"A platform application named {fields.name!r} is registered",
                "database_application_duplicate_name",
            )
        application = PlatformApplication(
            id=new_id(),
            account_id=account_id,
            region=NAMESPACED,
            name=fields.name,
            namespace=fields.namespace,
            repository=fields.repository,
            branch=fields.branch or DEFAULT_BRANCH,
            created_at=iso(self.state.clock.now()),
        )
        self.records[application.id] = application
        return application

    def update(
        self, application: PlatformApplication, effects: Effects, changes: ApplicationRegister
    ) -> None:
        account = self.state.accounts.by_id[application.account_id]
        organizations.require(account, changes.namespace, "namespace")
        application.repository = changes.repository
        application.branch = changes.branch or DEFAULT_BRANCH

    def check_delete(self, application: PlatformApplication) -> None:
        deployments = self.state.application_deployments
        if deployments.find(application.account_id, application.name) is not None:
            raise Conflict(
                f"The platform application {application.name!r} is deployed",
                "database_application_inuse",
            )

    def remove(self, application: PlatformApplication, effects: Effects) -> None:
        del self.records[application.id]
