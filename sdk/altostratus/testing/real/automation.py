"""The same ``Stack`` operations through the real engine: Pulumi's Automation API and CLI.

Used when ``Stack(engine="pulumi")`` (or ``"auto"`` with ``pulumi`` on ``PATH``). Each stack gets
a temporary directory holding a local file backend and ``PULUMI_HOME``; secrets are encrypted
with a fixed passphrase. A project directory is copied there with its runtime pointed at this
interpreter, so the installed altostratus runs. A ``StackReference`` is answered by a stack of
the referenced name in the same backend whose program exports the outputs the test supplies.
Resources of other providers run their real providers (plugins the CLI must find).
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from altostratus._pulumi_format import SECRET_SIGNATURE
from altostratus.testing._project import ConfigValue, full_key
from altostratus.testing._properties import is_secret, reveal
from altostratus.testing._results import (
    STACK_TYPE,
    DeploymentFailed,
    EventSink,
    OutputPath,
    OutputValue,
    ResourceResult,
    Result,
    resource_keys,
    secret_paths,
)
from altostratus.testing.real.events import (
    EngineEvents,
    exported_resource,
    is_engine_own,
    refresh_operations,
)

PASSPHRASE = "altostratus-testing"


def cli_available() -> bool:
    return shutil.which("pulumi") is not None


def this_interpreter(auto: Any) -> Any:
    """A Python runtime running this interpreter, where the installed altostratus is: its
    virtualenv when it runs in one, else ``PULUMI_PYTHON_CMD``."""
    if sys.prefix == sys.base_prefix:
        return auto.ProjectRuntimeInfo(name="python")
    return auto.ProjectRuntimeInfo(
        name="python", options={"toolchain": "pip", "virtualenv": sys.prefix}
    )


class AutomationStack:
    """A stack run by the Pulumi CLI; ``run`` answers a ``Result`` as the in-process runner."""

    def __init__(self, program: Callable[[], None] | Path, project: str, stack_name: str) -> None:
        from pulumi import automation as auto

        self._auto = auto
        self._dir = Path(tempfile.mkdtemp(prefix="altostratus-stack-"))
        (self._dir / "state").mkdir()
        self.project = project
        self._referenced: dict[str, dict[str, Any]] = {}
        self.env = {
            "PULUMI_BACKEND_URL": (self._dir / "state").as_uri(),
            "PULUMI_CONFIG_PASSPHRASE": PASSPHRASE,
            "PULUMI_SKIP_UPDATE_CHECK": "true",
            "PULUMI_PYTHON_CMD": sys.executable,
        }
        options = auto.LocalWorkspaceOptions(pulumi_home=str(self._dir / "home"), env_vars=self.env)
        if isinstance(program, Path):
            work = self._dir / "project"
            shutil.copytree(program, work, ignore=shutil.ignore_patterns("venv", "__pycache__"))
            options.work_dir = str(work)
            self.stack = auto.create_or_select_stack(stack_name, work_dir=str(work), opts=options)
            # The project's own settings (config defaults too), run by this interpreter.
            settings = self.stack.workspace.project_settings()
            settings.runtime = this_interpreter(auto)
            self.stack.workspace.save_project_settings(settings)
        else:
            options.project_settings = auto.ProjectSettings(
                name=project, runtime=this_interpreter(auto)
            )
            self.stack = auto.create_or_select_stack(
                stack_name, project_name=project, program=program, opts=options
            )

    def close(self) -> None:
        shutil.rmtree(self._dir, ignore_errors=True)

    def set_references(self, references: Mapping[str, Mapping[str, Any]]) -> None:
        """Stacks in the same backend exporting the supplied outputs.

        The local backend knows one organization, ``organization``: name references
        ``organization/<project>/<stack>`` (or ``<stack>`` of the same project).
        """
        for name, outputs in references.items():
            if self._referenced.get(name) == outputs:
                continue
            self._referenced[name] = dict(outputs)
            parts = name.split("/")
            project, stack_name = (parts[-2], parts[-1]) if len(parts) > 1 else (self.project, name)
            values = dict(outputs)

            def export(values: dict[str, Any] = values) -> None:
                import pulumi

                for key, value in values.items():
                    shown = pulumi.Output.secret(reveal(value)) if is_secret(value) else value
                    pulumi.export(key, shown)

            options = self._auto.LocalWorkspaceOptions(
                pulumi_home=str(self._dir / "home"), env_vars=self.env
            )
            referenced = self._auto.create_or_select_stack(
                stack_name, project_name=project, program=export, opts=options
            )
            referenced.up()

    def set_config(self, project: str, config: Mapping[str, ConfigValue]) -> None:
        values = {
            full_key(project, key): self._auto.ConfigValue(item.value, secret=item.secret)
            for key, item in config.items()
        }
        for key in set(self.stack.get_all_config()) - set(values):
            self.stack.remove_config(key)
        self.stack.set_all_config(values)

    def run(self, command: str, on_event: EventSink | None, parallel: int | None = None) -> Result:
        """``preview``, ``up``, ``refresh`` or ``destroy``; raises ``DeploymentFailed``.

        Each resource's values are those of the state after the operation (before it, for a
        preview, or for what a destroy deleted).
        """
        events = EngineEvents(on_event, preview=command == "preview")
        # Without it, the CLI's own default (four per CPU).
        options: dict[str, Any] = {} if parallel is None else {"parallel": parallel}
        result = Result(command)
        before = self._exported()
        try:
            if command == "preview":
                self.stack.preview(on_event=events, **options)
            elif command == "up":
                answer = self.stack.up(on_event=events, **options)
                inside = self._secrets_inside()
                result.outputs = {
                    k: OutputValue(v.value, v.secret, () if v.secret else inside.get(k, ()))
                    for k, v in answer.outputs.items()
                }
            elif command == "refresh":
                self.stack.refresh(on_event=events, **options)
            else:
                self.stack.destroy(on_event=events, **options)
        except self._auto.CommandError as error:
            result.failures.extend(_error_lines(str(error)))
        after = self._exported()
        operations = {urn: op for urn, (_, op) in events.operations.items()}
        if command == "refresh":
            # Each refresh step's event carries its ``ResultOp``; a resource without one keeps
            # what the states before and after tell.
            found = refresh_operations(before, after)
            operations = {**{urn: res.op for urn, res in found.items()}, **operations}
        keys = resource_keys(operations)
        for urn, op in operations.items():
            type_ = events.operations[urn][0] if urn in events.operations else ""
            state = after.get(urn) or before.get(urn) or ResourceResult(urn, type_, "", "", {}, {})
            result.resources[keys[urn]] = dataclasses.replace(state, op=op)
        result.check_failures = events.check_failures
        result.errors = events.errors
        if result.failures or result.check_failures:
            raise DeploymentFailed(result)
        return result

    def _secrets_inside(self) -> dict[str, tuple[OutputPath, ...]]:
        """Where the state marks secrets inside each stack output (``pulumi stack output``
        prints ``"[secret]"`` there)."""
        deployment = self.stack.export_stack().deployment or {}
        for res in deployment.get("resources") or []:
            if res["type"] == STACK_TYPE:
                outputs = res.get("outputs") or {}
                return {
                    key: tuple(secret_paths(value, _marked_secret))
                    for key, value in outputs.items()
                }
        return {}

    def _exported(self) -> dict[str, ResourceResult]:
        deployment = self.stack.export_stack().deployment or {}
        return {
            res["urn"]: exported_resource(res)
            for res in deployment.get("resources") or []
            if not is_engine_own(res["type"])
        }


def _marked_secret(value: Any) -> bool:
    return isinstance(value, dict) and SECRET_SIGNATURE in value


def _error_lines(text: str) -> list[str]:
    """The CLI's error lines (all of its last lines when none says ``error``)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower()]
    return errors or lines[-5:]
