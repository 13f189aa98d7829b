"""Platform environments (``/api/v1/environment``): named places in an organization's
namespace that applications deploy to, each with the managed clusters attached to it."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from altostratus.emulator.errors import Conflict, invalid, not_found
from altostratus.emulator.reading.bodies import (
    PlatformEnvironmentCreate,
    PlatformEnvironmentUpdate,
)
from altostratus.emulator.state import organizations
from altostratus.emulator.state.base import Effects, Record, Store, entry, iso, new_id

NAMESPACED = ""
"""The region of every platform record: they live in a namespace, not a region."""


@dataclass
class PlatformEnvironment(Record):
    name: str
    namespace: str
    description: str
    clusters: tuple[str, ...]
    created_at: str

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "namespace": self.namespace,
            "description": self.description,
            "clusters": list(self.clusters),
            "created_at": self.created_at,
        }


class PlatformEnvironments(
    Store[PlatformEnvironment, PlatformEnvironmentCreate, PlatformEnvironmentUpdate]
):
    kind = "environment"
    label = "platform environment"
    indexed = ("name",)

    def answer_inputs(self, record: Record) -> Hashable:
        return ()

    def seed_entry(self, environment: PlatformEnvironment) -> dict[str, Any]:
        return entry(
            environment,
            name=environment.name,
            namespace=environment.namespace,
            description=environment.description,
            clusters=list(environment.clusters) or None,
        )

    def named(self, account_id: str, namespace: str, name: str) -> PlatformEnvironment:
        """The environment ``name`` of the account's ``namespace``; a 404 naming it."""
        account = self.state.accounts.by_id[account_id]
        organizations.require(account, namespace, "namespace")
        for environment in self.records.find("name", name):
            if environment.account_id == account_id:
                return environment
        raise not_found(self.kind, f"{self.label} {name!r}")

    def create(
        self, account_id: str, region: str, effects: Effects, fields: PlatformEnvironmentCreate
    ) -> PlatformEnvironment:
        account = self.state.accounts.by_id[account_id]
        organizations.require(account, fields.namespace, "namespace")
        if any(e.account_id == account_id for e in self.records.find("name", fields.name)):
            raise Conflict(
                f"A platform environment named {fields.name!r} already exists in namespace "
                f"{fields.namespace!r}",
                "database_environment_duplicate_name",
            )
        environment = PlatformEnvironment(
            id=new_id(),
            account_id=account_id,
            region=NAMESPACED,
            name=fields.name,
            namespace=fields.namespace,
            description=fields.description or "",
            clusters=self._clusters(fields.clusters or ()),
            created_at=iso(self.state.clock.now()),
        )
        self.records[environment.id] = environment
        return environment

    def update(
        self,
        environment: PlatformEnvironment,
        effects: Effects,
        changes: PlatformEnvironmentUpdate,
    ) -> None:
        """The description and the clusters as sent (the name and namespace find it)."""
        if changes.description is not None:
            environment.description = changes.description
        if changes.clusters is not None:
            environment.clusters = self._clusters(changes.clusters)

    def check_delete(self, environment: PlatformEnvironment) -> None:
        for deployment in self.state.application_deployments.all(environment.account_id):
            if deployment.environment == environment.name:
                raise Conflict(
                    f"The platform environment {environment.name!r} holds the deployment of "
                    f"{deployment.application!r}; remove that first",
                    "database_environment_inuse",
                )

    def remove(self, environment: PlatformEnvironment, effects: Effects) -> None:
        del self.records[environment.id]

    def _clusters(self, names: tuple[str, ...]) -> tuple[str, ...]:
        known = organizations.cluster_names(self.state)
        for name in names:
            if name not in known:
                raise invalid(
                    "clusters",
                    f"No managed cluster {name!r}; the organization's clusters are "
                    f"{', '.join(known)}",
                )
        return names
