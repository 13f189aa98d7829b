"""/api/v1/application/register and /api/v1/konstruct-application: the platform applications
of the organization's namespace."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import ApplicationRegister
from altostratus.emulator.routes.call import Call, RouteTable
from altostratus.emulator.state import organizations
from altostratus.emulator.state.base import Encoded

ROUTES = RouteTable(regional=False, prefix="/api/v1")


@ROUTES.add(
    "POST",
    "/application/register",
    "Register a platform application (again: update it)",
    "PlatformApplication",
    ApplicationRegister,
)
def register_application(call: Call, fields: ApplicationRegister) -> dict[str, Any]:
    applications = call.state.platform_applications
    found = applications.find(call.account_id, fields.name)
    if found is None:
        return applications.create(call.account_id, call.region, call.effects, fields).describe()
    applications.update(found, call.effects, fields)
    return found.describe()


@ROUTES.add(
    "GET", "/konstruct-application/{ns}", "List platform applications", "[PlatformApplication]"
)
def list_applications(call: Call, namespace: str) -> Encoded:
    organizations.require(call.account, namespace, "namespace")
    applications = call.state.platform_applications
    return applications.answers(applications.all(call.account_id))


@ROUTES.add(
    "GET",
    "/konstruct-application/{ns}/{name}",
    "Retrieve a platform application",
    "PlatformApplication",
)
def get_application(call: Call, namespace: str, name: str) -> dict[str, Any]:
    return call.state.platform_applications.named(call.account_id, namespace, name).describe()
