"""The same ``Stack`` operations through the real engine: Pulumi's Automation API and CLI.

Used when ``Stack(engine="pulumi")`` (or ``"auto"`` with ``pulumi`` on ``PATH``). Each stack gets
a temporary directory holding a local file backend and ``PULUMI_HOME``; secrets are encrypted
with a fixed passphrase. A project directory is copied there with its runtime pointed at this
interpreter, so the installed altostratus runs. A ``StackReference`` is answered by a stack of
the referenced name in the same backend whose program exports the outputs the test supplies.
Resources of other providers run their real providers (plugins the CLI must find).
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from altostratus.testing._program import ConfigValue, OutputValue, full_key
from altostratus.testing._results import CheckFailureResult, ResourceResult, Result, resource_key
from altostratus.testing._state import StepEvent
from altostratus.testing._steps import EventSink

_CHECK_FAILURE = re.compile(r"property (\S+) value .* has a problem: (.*)$", re.DOTALL)
_REPLACING = {"create-replacement", "delete-replaced", "replace", "discard-replaced"}


def cli_available() -> bool:
    return shutil.which("pulumi") is not None


class AutomationStack:
    """A stack run by the Pulumi CLI; ``run`` answers a ``Result`` as the in-process runner."""

    def __init__(
        self,
        program: Callable[[], None] | Path,
        project: str,
        stack_name: str,
        on_event: EventSink | None,
    ) -> None:
        from pulumi import automation as auto

        self._auto = auto
        self._dir = Path(tempfile.mkdtemp(prefix="altostratus-stack-"))
        (self._dir / "state").mkdir()
        self.project = project
        self.on_event = on_event
        self.env = {
            "PULUMI_BACKEND_URL": (self._dir / "state").as_uri(),
            "PULUMI_CONFIG_PASSPHRASE": "altostratus-testing",
            "PULUMI_SKIP_UPDATE_CHECK": "true",
            "PULUMI_PYTHON_CMD": sys.executable,
        }
        runtime = auto.ProjectRuntimeInfo(
            name="python", options={"toolchain": "pip", "virtualenv": sys.prefix}
        )
        options = auto.LocalWorkspaceOptions(
            pulumi_home=str(self._dir / "home"),
            env_vars=self.env,
            project_settings=auto.ProjectSettings(name=project, runtime=runtime),
        )
        if isinstance(program, Path):
            work = self._dir / "project"
            shutil.copytree(program, work, ignore=shutil.ignore_patterns("venv", "__pycache__"))
            options.work_dir = str(work)
            self.stack = auto.create_or_select_stack(stack_name, work_dir=str(work), opts=options)
        else:
            self.stack = auto.create_or_select_stack(
                stack_name, project_name=project, program=program, opts=options
            )
        self._started: dict[str, float] = {}

    def close(self) -> None:
        shutil.rmtree(self._dir, ignore_errors=True)

    def set_references(self, references: Mapping[str, Mapping[str, Any]]) -> None:
        """Stacks in the same backend exporting the supplied outputs."""
        for name, outputs in references.items():
            parts = name.split("/")
            project, stack_name = (parts[-2], parts[-1]) if len(parts) > 1 else (self.project, name)
            values = dict(outputs)

            def export(values: dict[str, Any] = values) -> None:
                import pulumi

                for key, value in values.items():
                    pulumi.export(key, value)

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
        current = self.stack.get_all_config()
        for key in set(current) - set(values):
            self.stack.remove_config(key)
        self.stack.set_all_config(values)

    def run(self, command: str) -> Result:
        """``preview``, ``up``, ``refresh`` or ``destroy``; raises ``DeploymentFailed``."""
        from altostratus.testing._results import DeploymentFailed

        result = Result(command)
        operations: dict[str, tuple[str, str]] = {}

        def on_event(event: Any) -> None:
            self._record(event, result, operations)

        try:
            if command == "preview":
                self.stack.preview(on_event=on_event)
            elif command == "up":
                answer = self.stack.up(on_event=on_event)
                result.outputs = {
                    k: OutputValue(v.value, v.secret) for k, v in answer.outputs.items()
                }
            elif command == "refresh":
                self.stack.refresh(on_event=on_event)
            else:
                self.stack.destroy(on_event=on_event)
        except self._auto.CommandError as error:
            lines = [line for line in str(error).splitlines() if line.strip()]
            result.failures.extend(lines[-5:])
        states = self._exported()
        for urn, (type_, op) in operations.items():
            inputs, outputs, id_ = states.get(urn, ({}, {}, ""))
            result.resources[resource_key(urn)] = ResourceResult(
                urn, type_, op, id_, inputs, outputs
            )
        if result.failures or result.check_failures:
            raise DeploymentFailed(result)
        return result

    def _record(self, event: Any, result: Result, ops: dict[str, tuple[str, str]]) -> None:
        if event.diagnostic_event is not None and event.diagnostic_event.severity == "error":
            diag = event.diagnostic_event
            found = _CHECK_FAILURE.search(diag.message.strip())
            if found and diag.urn:
                result.check_failures.append(
                    CheckFailureResult(resource_key(diag.urn), found[1], found[2].strip())
                )
            return
        for name in ("resource_pre_event", "res_outputs_event", "res_op_failed_event"):
            step = getattr(event, name, None)
            if step is None:
                continue
            meta = step.metadata
            op = str(getattr(meta.op, "value", meta.op))
            if meta.type.startswith("pulumi:providers:") or meta.type == "pulumi:pulumi:Stack":
                return
            status = {"resource_pre_event": "started", "res_outputs_event": "done"}.get(
                name, "failed"
            )
            key = f"{meta.urn}/{op}"
            if status == "started":
                self._started[key] = time.monotonic()
            elapsed = time.monotonic() - self._started.get(key, time.monotonic())
            shown = "replace" if op in _REPLACING else op
            if op != "refresh":
                ops[meta.urn] = (meta.type, shown)
            if self.on_event is not None:
                self.on_event(StepEvent(op, meta.urn, meta.type, status, elapsed))

    def _exported(self) -> dict[str, tuple[dict[str, Any], dict[str, Any], str]]:
        deployment = self.stack.export_stack().deployment or {}
        found: dict[str, tuple[dict[str, Any], dict[str, Any], str]] = {}
        hidden = ("__provider", "__name_prefix")
        for res in deployment.get("resources", []):
            inputs = {k: v for k, v in (res.get("inputs") or {}).items() if k not in hidden}
            outputs = {k: v for k, v in (res.get("outputs") or {}).items() if k not in hidden}
            found[res["urn"]] = (inputs, outputs, str(res.get("id", "")))
        return found
