"""/api/v1/app-environments: where the applications of ``cli deploy`` run."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import AppEnvironmentCreate
from altostratus.emulator.routes.call import Call, RouteTable
from altostratus.emulator.state import organizations

ROUTES = RouteTable(regional=False, prefix="/api/v1")


@ROUTES.add("GET", "/app-environments/{org}", "List the hosting environments", "[AppEnvironment]")
def list_app_environments(call: Call, org: str) -> list[dict[str, Any]]:
    organizations.require(call.account, org)
    return call.state.app_environments.listed(call.account_id)


@ROUTES.add(
    "POST",
    "/app-environments",
    "Create a hosting environment",
    "AppEnvironment",
    AppEnvironmentCreate,
)
def create_app_environment(call: Call, fields: AppEnvironmentCreate) -> dict[str, Any]:
    environments = call.state.app_environments
    made = environments.create(call.account_id, call.region, call.effects, fields)
    return made.describe()
