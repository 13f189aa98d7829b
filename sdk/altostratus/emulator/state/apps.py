"""Applications of ``cli deploy``: what was pushed (its runtime and its tree's digest), its
variables and its builds. Its phase and its logs follow the emulator's clock from the latest
build's start (``PHASES``, ``BUILD_STEPS``): nothing runs, the answers say what a build and a
rollout of that length would have said by now."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from altostratus.emulator.errors import Conflict, not_found
from altostratus.emulator.reading.bodies import AppDeploy, AppVariables
from altostratus.emulator.state import organizations
from altostratus.emulator.state.app_environments import BUILT_IN
from altostratus.emulator.state.base import Effects, Record, Store, entry, iso, new_id

PHASES = (("building", 0.0), ("deploying", 20.0), ("running", 30.0))
"""Each phase and the emulated seconds after a build's start from which it holds."""
BUILD_STEPS = (
    (0.0, "build #{number} started ({reason})"),
    (2.0, "detected a {runtime} application, {files} files, digest {short}"),
    (5.0, "installing dependencies"),
    (12.0, "building image {image}"),
    (20.0, "pushed {image}"),
)
RUNTIME_EVERY = 10.0
"""Emulated seconds between two runtime log lines (a health check answered) once running."""
RUNTIME_LINES = 200
"""The most runtime log lines answered (the latest)."""
BUILDS_SHOWN = 5


@dataclass
class App(Record):
    name: str
    organization: str
    runtime: str
    environment: str
    digest: str
    files: int
    variables: tuple[tuple[str, str], ...]
    builds: tuple[tuple[int, str, str], ...]
    """Each build: its number, when it started (ISO 8601) and why."""
    created_at: str


def phase(elapsed: float) -> str:
    return [name for name, after in PHASES if elapsed >= after][-1]


class Apps(Store[App, AppDeploy, AppDeploy]):
    """Deploying a name the organization has pushes a new build of it (``update``)."""

    kind = "app"
    label = "application"
    indexed = ("name",)

    def _elapsed(self, app: App) -> float:
        started = datetime.fromisoformat(app.builds[-1][1])
        return (self.state.clock.now() - started).total_seconds()

    def describe(self, app: App) -> dict[str, Any]:
        now = self.state.clock.now()
        builds = []
        for number, started, reason in app.builds[-BUILDS_SHOWN:]:
            elapsed = (now - datetime.fromisoformat(started)).total_seconds()
            status = "building" if elapsed < PHASES[1][1] else "succeeded"
            if number != app.builds[-1][0] and status == "building":
                status = "superseded"
            builds.append(
                {"number": number, "started_at": started, "reason": reason, "status": status}
            )
        return {
            "id": app.id,
            "name": app.name,
            "organization": app.organization,
            "environment": app.environment,
            "runtime": app.runtime,
            "phase": phase(self._elapsed(app)),
            "url": f"http://{app.name}.{app.organization}.apps.localhost",
            "image": self.image(app),
            "builds": builds[::-1],
            "created_at": app.created_at,
        }

    @staticmethod
    def image(app: App) -> str:
        return f"registry.localhost/{app.organization}/{app.name}:{app.digest[:12]}"

    def seed_entry(self, app: App) -> dict[str, Any]:
        return entry(
            app,
            name=app.name,
            organization=app.organization,
            runtime=app.runtime,
            digest=app.digest,
            files=app.files,
            environment=app.environment,
        )

    def named(self, account_id: str, org: str, name: str) -> App:
        organizations.require(self.state.accounts.by_id[account_id], org)
        found = self.find(account_id, name)
        if found is None:
            raise not_found(self.kind, f"{self.label} {name!r}")
        return found

    def create(self, account_id: str, region: str, effects: Effects, fields: AppDeploy) -> App:
        organizations.require(self.state.accounts.by_id[account_id], fields.organization)
        if self.find(account_id, fields.name) is not None:
            raise Conflict(
                f"An application named {fields.name!r} exists", "database_app_duplicate_name"
            )
        environment = fields.environment or BUILT_IN
        self.state.app_environments.require(account_id, environment)
        now = iso(self.state.clock.now())
        app = App(
            id=new_id(),
            account_id=account_id,
            region="",
            name=fields.name,
            organization=fields.organization,
            runtime=fields.runtime,
            environment=environment,
            digest=fields.digest,
            files=fields.files or 0,
            variables=(),
            builds=((1, now, "deploy"),),
            created_at=now,
        )
        self.records[app.id] = app
        effects.emit(account_id, "app.created", app.id)
        return app

    def update(self, app: App, effects: Effects, changes: AppDeploy) -> None:
        """A new push: its runtime, tree and environment, and a build of it."""
        organizations.require(self.state.accounts.by_id[app.account_id], changes.organization)
        environment = changes.environment or app.environment
        self.state.app_environments.require(app.account_id, environment)
        app.runtime = changes.runtime
        app.digest = changes.digest
        app.files = changes.files if changes.files is not None else app.files
        app.environment = environment
        self.rebuild(app, "deploy")

    def set_variables(self, app: App, changes: AppVariables) -> None:
        """Set the variables given (the others kept); a build with them follows."""
        merged = dict(app.variables)
        merged.update(changes.vars)
        app.variables = tuple(sorted(merged.items()))
        self.rebuild(app, "variables changed")

    def rebuild(self, app: App, reason: str) -> None:
        number = app.builds[-1][0] + 1
        app.builds = (
            *app.builds[-(BUILDS_SHOWN - 1) :],
            (number, iso(self.state.clock.now()), reason),
        )

    def logs(self, app: App, *, build: bool) -> list[dict[str, Any]]:
        """The latest build's lines so far (``build``), or the runtime's once deployed."""
        number, started_text, reason = app.builds[-1]
        started = datetime.fromisoformat(started_text)
        elapsed = self._elapsed(app)
        if build:
            values = {
                "number": number,
                "reason": reason,
                "runtime": app.runtime,
                "files": app.files,
                "short": app.digest[:12],
                "image": self.image(app),
            }
            return [
                _line(started + timedelta(seconds=at), "build", text.format(**values))
                for at, text in BUILD_STEPS
                if elapsed >= at
            ]
        running_since = PHASES[2][1]
        if elapsed < running_since:
            return []
        count = int((elapsed - running_since) // RUNTIME_EVERY)
        first = max(0, count - RUNTIME_LINES + 1)
        lines = []
        if first == 0:
            lines.append(
                _line(started + timedelta(seconds=running_since), "runtime", "listening on :8080")
            )
        for index in range(max(first, 1), count + 1):
            at = started + timedelta(seconds=running_since + index * RUNTIME_EVERY)
            lines.append(_line(at, "runtime", "GET /healthz 200"))
        return lines

    def remove(self, app: App, effects: Effects) -> None:
        del self.records[app.id]
        effects.emit(app.account_id, "app.deleted", app.id)


def _line(at: datetime, stream: str, message: str) -> dict[str, Any]:
    return {"at": iso(at), "stream": stream, "message": message}
