"""Application-hosting environments (``cli environments``): zones in a region where the
applications of ``cli deploy`` run. Every organization has ``default``, in the default region,
which no store keeps; ``cli environments --create`` adds others."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from altostratus.emulator.errors import Conflict, invalid, not_found
from altostratus.emulator.reading.bodies import AppEnvironmentCreate
from altostratus.emulator.state import organizations
from altostratus.emulator.state.base import Effects, Record, Store, entry, iso, new_id
from altostratus.emulator.vocabulary import DEFAULT_REGION

BUILT_IN = "default"


@dataclass
class AppEnvironment(Record):
    name: str
    organization: str
    created_at: str

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "organization": self.organization,
            "region": self.region,
            "cluster": organizations.cluster_name(self.region),
            "built_in": False,
            "created_at": self.created_at,
        }


def built_in(organization: str) -> dict[str, Any]:
    return {
        "name": BUILT_IN,
        "organization": organization,
        "region": DEFAULT_REGION,
        "cluster": organizations.cluster_name(DEFAULT_REGION),
        "built_in": True,
    }


class AppEnvironments(Store[AppEnvironment, AppEnvironmentCreate, AppEnvironmentCreate]):
    """Creating a name the organization has moves it to the region given (``update``)."""

    kind = "app_environment"
    label = "environment"
    indexed = ("name",)

    def answer_inputs(self, record: Record) -> Hashable:
        return ()

    def seed_entry(self, environment: AppEnvironment) -> dict[str, Any]:
        return entry(
            environment,
            name=environment.name,
            organization=environment.organization,
        )

    def listed(self, account_id: str) -> list[dict[str, Any]]:
        account = self.state.accounts.by_id[account_id]
        made = [e.describe() for e in self.all(account_id)]
        return [built_in(organizations.organization(account)), *made]

    def require(self, account_id: str, name: str) -> None:
        """404 unless the organization has the environment ``name``."""
        if name != BUILT_IN and self.find(account_id, name) is None:
            raise not_found(self.kind, f"{self.label} {name!r}")

    def _region(self, region: str | None) -> str:
        code = (region or DEFAULT_REGION).strip().upper()
        if code not in self.state.settings.regions:
            known = ", ".join(self.state.settings.regions)
            raise invalid("region", f"No region {code!r}; the regions are {known}")
        return code

    def create(
        self, account_id: str, region: str, effects: Effects, fields: AppEnvironmentCreate
    ) -> AppEnvironment:
        organizations.require(self.state.accounts.by_id[account_id], fields.organization)
        if fields.name == BUILT_IN or self.find(account_id, fields.name) is not None:
            raise Conflict(
                f"An environment named {fields.name!r} exists",
                "database_app_environment_duplicate_name",
            )
        environment = AppEnvironment(
            id=new_id(),
            account_id=account_id,
            region=self._region(fields.region or region or None),
            name=fields.name,
            organization=fields.organization,
            created_at=iso(self.state.clock.now()),
        )
        self.records[environment.id] = environment
        return environment

    def update(
        self, environment: AppEnvironment, effects: Effects, changes: AppEnvironmentCreate
    ) -> None:
        environment.region = self._region(changes.region)

    def check_delete(self, environment: AppEnvironment) -> None:
        for app in self.state.apps.all(environment.account_id):
            if app.environment == environment.name:
                raise Conflict(
                    f"The environment {environment.name!r} runs {app.name!r}",
                    "database_app_environment_inuse",
                )

    def remove(self, environment: AppEnvironment, effects: Effects) -> None:
        del self.records[environment.id]
