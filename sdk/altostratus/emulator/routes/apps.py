"""/api/v1/apps: the applications of ``cli deploy``, in the organization of the key."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import AppDeploy, AppVariables
from altostratus.emulator.routes.call import SUCCESS, Call, RouteTable
from altostratus.emulator.state import organizations

ROUTES = RouteTable(regional=False, prefix="/api/v1")


@ROUTES.add("POST", "/apps", "Deploy what was pushed (again: a new build)", "App", AppDeploy)
def deploy_app(call: Call, fields: AppDeploy) -> dict[str, Any]:
    apps = call.state.apps
    found = apps.find(call.account_id, fields.name)
    if found is None:
        found = apps.create(call.account_id, call.region, call.effects, fields)
    else:
        apps.update(found, call.effects, fields)
    return apps.describe(found)


@ROUTES.add("GET", "/apps/{org}", "List the organization's applications", "[App]")
def list_apps(call: Call, org: str) -> list[dict[str, Any]]:
    organizations.require(call.account, org)
    apps = call.state.apps
    return [apps.describe(app) for app in apps.all(call.account_id)]


@ROUTES.add("GET", "/apps/{org}/{name}", "An application's phase, URL, image and builds", "App")
def get_app(call: Call, org: str, name: str) -> dict[str, Any]:
    apps = call.state.apps
    return apps.describe(apps.named(call.account_id, org, name))


@ROUTES.add(
    "GET", "/apps/{org}/{name}/logs", "An application's logs so far", "AppLogs", query=("build",)
)
def app_logs(call: Call, org: str, name: str) -> dict[str, Any]:
    """``build=true``: the latest build's; else the runtime's."""
    apps = call.state.apps
    app = apps.named(call.account_id, org, name)
    build = call.query.get("build", "").lower() in ("true", "1", "yes")
    return {"lines": apps.logs(app, build=build)}


@ROUTES.add("GET", "/apps/{org}/{name}/env", "An application's variables", "AppVariables")
def app_variables(call: Call, org: str, name: str) -> dict[str, Any]:
    app = call.state.apps.named(call.account_id, org, name)
    return {"vars": dict(app.variables)}


@ROUTES.add(
    "PUT",
    "/apps/{org}/{name}/env",
    "Set variables of an application (a build follows)",
    "App",
    AppVariables,
)
def set_app_variables(call: Call, org: str, name: str, changes: AppVariables) -> dict[str, Any]:
    apps = call.state.apps
    app = apps.named(call.account_id, org, name)
    apps.set_variables(app, changes)
    return apps.describe(app)


@ROUTES.add("POST", "/apps/{org}/{name}/redeploy", "Build the application again", "App")
def redeploy_app(call: Call, org: str, name: str) -> dict[str, Any]:
    apps = call.state.apps
    app = apps.named(call.account_id, org, name)
    apps.rebuild(app, "redeploy")
    return apps.describe(app)


@ROUTES.add("DELETE", "/apps/{org}/{name}", "Delete an application", "Result")
def delete_app(call: Call, org: str, name: str) -> dict[str, Any]:
    apps = call.state.apps
    apps.delete(apps.named(call.account_id, org, name), call.effects)
    return dict(SUCCESS)
