"""/api/v1/application-deployment: each platform application's deployment, and /api/v1's
team-management clusters the deployments run on."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import ApplicationDeploy
from altostratus.emulator.routes.call import Call, RouteTable
from altostratus.emulator.state import organizations
from altostratus.emulator.state.base import Encoded

ROUTES = RouteTable(regional=False, prefix="/api/v1")


@ROUTES.add(
    "POST",
    "/application-deployment/deploy",
    "Deploy a platform application to an environment (again: replace its deployment)",
    "ApplicationDeployment",
    ApplicationDeploy,
)
def deploy_application(call: Call, fields: ApplicationDeploy) -> dict[str, Any]:
    deployments = call.state.application_deployments
    found = deployments.find(call.account_id, fields.application)
    if found is None:
        found = deployments.create(call.account_id, call.region, call.effects, fields)
    else:
        deployments.update(found, call.effects, fields)
    return deployments.describe(found)


@ROUTES.add(
    "GET",
    "/application-deployment/{ns}",
    "List application deployments",
    "[ApplicationDeployment]",
)
def list_deployments(call: Call, namespace: str) -> Encoded:
    organizations.require(call.account, namespace, "namespace")
    deployments = call.state.application_deployments
    return deployments.answers(deployments.all(call.account_id))


@ROUTES.add(
    "GET",
    "/application-deployment/{ns}/{name}",
    "Retrieve an application's deployment",
    "ApplicationDeployment",
)
def get_deployment(call: Call, namespace: str, name: str) -> dict[str, Any]:
    deployments = call.state.application_deployments
    return deployments.describe(deployments.named(call.account_id, namespace, name))


@ROUTES.add(
    "GET", "/team-management/{org}/clusters", "List the organization's clusters", "[Cluster]"
)
def list_clusters(call: Call, org: str) -> list[dict[str, Any]]:
    organizations.require(call.account, org)
    return organizations.clusters(call.state, call.account)
