"""/api/v1/environment(s): the platform environments of the organization's namespace."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import (
    PlatformEnvironmentCreate,
    PlatformEnvironmentUpdate,
)
from altostratus.emulator.routes.call import SUCCESS, Call, RouteTable
from altostratus.emulator.state.base import Encoded

ROUTES = RouteTable(regional=False, prefix="/api/v1")


@ROUTES.add("GET", "/environments", "List platform environments", "[PlatformEnvironment]")
def list_environments(call: Call) -> Encoded:
    environments = call.state.platform_environments
    return environments.answers(environments.all(call.account_id))


@ROUTES.add(
    "GET", "/environment/{ns}/{name}", "Retrieve a platform environment", "PlatformEnvironment"
)
def get_environment(call: Call, namespace: str, name: str) -> dict[str, Any]:
    return call.state.platform_environments.named(call.account_id, namespace, name).describe()


@ROUTES.add(
    "POST",
    "/environment",
    "Create a platform environment",
    "PlatformEnvironment",
    PlatformEnvironmentCreate,
)
def create_environment(call: Call, fields: PlatformEnvironmentCreate) -> dict[str, Any]:
    environments = call.state.platform_environments
    return environments.create(call.account_id, call.region, call.effects, fields).describe()


@ROUTES.add(
    "PUT",
    "/environment",
    "Replace a platform environment's description and clusters",
    "PlatformEnvironment",
    PlatformEnvironmentUpdate,
)
def update_environment(call: Call, changes: PlatformEnvironmentUpdate) -> dict[str, Any]:
    environments = call.state.platform_environments
    environment = environments.named(call.account_id, changes.namespace, changes.name)
    environments.update(environment, call.effects, changes)
    return environment.describe()


@ROUTES.add("DELETE", "/environment/{ns}/{name}", "Delete a platform environment", "Result")
def delete_environment(call: Call, namespace: str, name: str) -> dict[str, Any]:
    environments = call.state.platform_environments
    environments.delete(environments.named(call.account_id, namespace, name), call.effects)
    return dict(SUCCESS)
