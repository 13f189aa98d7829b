"""``Stack``: a program's stack, run through the real provider process as the engine runs it."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from altostratus.testing._project import ConfigValue, full_key, load_project_name, stack_config
from altostratus.testing._properties import Properties, reveal, secret
from altostratus.testing._results import (
    STACK_TYPE,
    DeploymentFailed,
    EventSink,
    OutputValue,
    Result,
)
from altostratus.testing.real.automation import AutomationStack, cli_available
from altostratus.testing.runner.deployment import Deployment, OtherProvider
from altostratus.testing.runner.fronts import (
    Providers,
    default_provider_inputs,
    default_provider_urn,
)
from altostratus.testing.runner.monitor import EngineMonitor, Invoke
from altostratus.testing.runner.operations import destroy, refresh
from altostratus.testing.runner.processes import ProviderProcesses
from altostratus.testing.runner.program import Program, provider_inputs, run
from altostratus.testing.runner.report import result_of
from altostratus.testing.runner.state import Goal, Snapshot
from altostratus.testing.runner.steps import PARALLEL, Canceled, ResourceFailed

ENGINES = ("runner", "pulumi", "auto")


def choose_engine(engine: str | None) -> str:
    """``runner`` or ``pulumi``, from the argument or ``ALTOSTRATUS_TESTING_ENGINE``."""
    chosen = engine or os.environ.get("ALTOSTRATUS_TESTING_ENGINE") or "runner"
    if chosen not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {chosen!r}")
    if chosen == "auto":
        return "pulumi" if cli_available() else "runner"
    if chosen == "pulumi" and not cli_available():
        raise RuntimeError("engine='pulumi' needs the pulumi CLI on PATH")
    return chosen


if TYPE_CHECKING:
    from altostratus.emulator import Emulator

OtherResources = Callable[[str, str, dict[str, Any]], Mapping[str, Any]]
"""Outputs of a resource of another provider, given its type token, name and inputs."""


class Stack:
    """One stack of one program, with its configuration and its state kept between operations.

    ``program`` is a function declaring resources or a Pulumi project directory (with
    ``Pulumi.yaml`` and ``__main__.py``), whose configuration defaults and plain values of
    ``Pulumi.<stack>.yaml`` the stack starts with. With ``emulator``, ``altostratus:apiUrl`` and the
    secret ``altostratus:apiKey`` point at it. ``references`` gives the outputs of each
    ``StackReference`` by stack name; ``other_resources`` gives the outputs of resources of other
    providers (by default their inputs); ``on_event`` receives a ``StepEvent`` as each step
    starts and ends.

    ``engine`` picks what plays the engine: ``"runner"`` (the default: this process, as described
    in the module's docstring), ``"pulumi"`` (the real engine through the Automation API; needs
    the ``pulumi`` CLI) or ``"auto"`` (the CLI when it is on ``PATH``). The environment variable
    ``ALTOSTRATUS_TESTING_ENGINE`` sets the default. With the real engine ``state`` stays empty,
    the resources' values are those of ``pulumi stack export``, resources of other providers run
    their real providers (``other_resources`` and ``invoke`` are not used), and references name
    ``organization/<project>/<stack>``, the local backend's one organization.

    ``parallel`` bounds the steps run at once by every operation, as ``--parallel`` does (by
    default four per CPU, the engine's default).
    """

    def __init__(
        self,
        program: Program | str,
        *,
        emulator: Emulator | None = None,
        config: Mapping[str, Any] | None = None,
        secrets: Mapping[str, Any] | None = None,
        references: Mapping[str, Mapping[str, Any]] | None = None,
        other_resources: OtherResources | None = None,
        invoke: Invoke | None = None,
        on_event: EventSink | None = None,
        project: str | None = None,
        stack: str = "test",
        processes: ProviderProcesses | None = None,
        engine: str | None = None,
        parallel: int | None = None,
    ) -> None:
        self.program: Program = Path(program) if isinstance(program, str) else program
        if project is None:
            project = load_project_name(self.program) if isinstance(self.program, Path) else "test"
        self.project = project
        self.name = stack
        self.config: dict[str, ConfigValue] = {}
        if isinstance(self.program, Path):
            for key, value in stack_config(self.program, stack).items():
                self.set_config(key, value)
        if emulator is not None:
            self.set_config("altostratus:apiUrl", emulator.api_url)
            self.set_config("altostratus:apiKey", emulator.api_key, secret=True)
        for key, value in (config or {}).items():
            self.set_config(key, value)
        for key, value in (secrets or {}).items():
            self.set_config(key, value, secret=True)
        self.references: dict[str, dict[str, Any]] = {
            name: dict(outputs) for name, outputs in (references or {}).items()
        }
        self.other_resources = other_resources
        self.invoke = invoke
        self.on_event = on_event
        self.state = Snapshot()
        self._own_processes = processes is None
        self.processes = processes or ProviderProcesses()
        self.engine = choose_engine(engine)
        if parallel is not None and parallel < 1:
            raise ValueError(f"parallel must be at least 1, not {parallel}")
        self.parallel = parallel
        self._automation: AutomationStack | None = None

    # -- configuration ---------------------------------------------------------------------
    def set_config(self, key: str, value: Any, *, secret: bool = False) -> None:
        """``pulumi config set [--secret] key value``; bare keys belong to the project.

        Text is stored as it is; other values as JSON (``["10.0.0.1"]``, ``true``, ``3``), as
        ``config.get_object``, ``get_bool`` and ``get_int`` read them.
        """
        text = value if isinstance(value, str) else json.dumps(value)
        self.config[full_key(self.project, key)] = ConfigValue(text, secret)

    def remove_config(self, key: str) -> None:
        self.config.pop(full_key(self.project, key), None)

    def set_reference(self, stack_name: str, outputs: Mapping[str, Any]) -> None:
        """The outputs a ``StackReference(stack_name)`` sees; wrap values with ``secret()``."""
        self.references[stack_name] = dict(outputs)

    # -- operations ------------------------------------------------------------------------
    def preview(self) -> Result:
        """``pulumi preview``: check and diff with unknowns; nothing is created or changed."""
        if self.engine == "pulumi":
            return self._automation_stack().run("preview", self.on_event, self.parallel)
        return self._deploy(preview=True)

    def up(self) -> Result:
        """``pulumi up`` (without its preview): the program's resources made as declared."""
        if self.engine == "pulumi":
            return self._automation_stack().run("up", self.on_event, self.parallel)
        return self._deploy(preview=False)

    def refresh(self) -> Result:
        """``pulumi refresh``: every resource read, with the configuration stored in the state;
        each resource's operation is the one the engine reports (``update`` for drift in what
        the program sets), and ``Result.expect_no_changes`` says whether
        ``--expect-no-changes`` would pass."""
        if self.engine == "pulumi":
            return self._automation_stack().run("refresh", self.on_event, self.parallel)
        with self._providers(self.state.provider_config) as providers:
            outcome = refresh(self.state, providers, on_event=self.on_event, parallel=self.parallel)
        return self._conclude("refresh", outcome.operations, outcome.snapshot, outcome.failures)

    def destroy(self) -> Result:
        """``pulumi destroy``: everything deleted, with the configuration stored in the state."""
        if self.engine == "pulumi":
            return self._automation_stack().run("destroy", self.on_event, self.parallel)
        with self._providers(self.state.provider_config) as providers:
            outcome = destroy(self.state, providers, on_event=self.on_event, parallel=self.parallel)
        return self._conclude("destroy", outcome.operations, outcome.snapshot, outcome.failures)

    def close(self) -> None:
        """Stop the provider processes this stack started (the state is kept)."""
        if self._own_processes:
            self.processes.close()
        if self._automation is not None:
            self._automation.close()
            self._automation = None

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the machinery ---------------------------------------------------------------------
    def _automation_stack(self) -> AutomationStack:
        if self._automation is None:
            self._automation = AutomationStack(self.program, self.project, self.name)
        self._automation.set_references(self.references)
        self._automation.set_config(self.project, self.config)
        return self._automation

    @contextmanager
    def _providers(
        self, config: Properties, default: tuple[str, Properties] | None = None
    ) -> Iterator[Providers]:
        """The provider processes of one operation (see ``runner.fronts``)."""
        providers = Providers(self.processes, config, self.state, default)
        try:
            yield providers
        finally:
            providers.close()

    def _deploy(self, *, preview: bool) -> Result:
        config = provider_inputs(self.project, self.config)
        urn = default_provider_urn(self.name, self.project)
        with self._providers(config, (urn, default_provider_inputs(config))) as providers:
            return self._deploy_with(providers, config, preview=preview)

    def _deploy_with(self, providers: Providers, config: Properties, *, preview: bool) -> Result:
        deployment = Deployment(
            self.state,
            providers,
            config,
            preview=preview,
            on_event=self.on_event,
            other_provider=self._other_provider(),
            parallel=self.parallel,
        )
        monitor = EngineMonitor(deployment, self.references, self.invoke, providers)
        outputs: dict[str, OutputValue] = {}
        program_error: BaseException | None = None
        try:
            outputs = run(
                self.program,
                monitor,
                project=self.project,
                stack=self.name,
                config=self.config,
                preview=preview,
                parallel=self.parallel or PARALLEL,
            )
        except Exception as error:
            program_error = error
        snapshot = deployment.finish(failed=program_error is not None)
        failures = list(deployment.failures)
        command = "preview" if preview else "up"
        reported = isinstance(program_error, Canceled) or any(
            program_error is f or program_error is f.cause for f in failures
        )
        if program_error is not None and not reported:
            # The language host reports the program's error on the stack resource.
            message = f"{type(program_error).__name__}: {program_error}"
            failures.append(ResourceFailed(self._stack_urn(), "program", message))
        return self._conclude(command, deployment.operations, snapshot, failures, outputs, preview)

    def _conclude(
        self,
        command: str,
        operations: Mapping[str, str],
        snapshot: Snapshot,
        failures: list[ResourceFailed],
        outputs: dict[str, OutputValue] | None = None,
        preview: bool = False,
    ) -> Result:
        result = result_of(command, operations, self.state, snapshot, failures, outputs)
        if not preview:
            self.state = snapshot
        if failures:
            raise DeploymentFailed(result)
        return result

    def _stack_urn(self) -> str:
        name = f"{self.project}-{self.name}"
        return f"urn:pulumi:{self.name}::{self.project}::{STACK_TYPE}::{name}"

    def _other_provider(self) -> OtherProvider:
        supply = self.other_resources

        def outputs(goal: Goal) -> tuple[str, Properties]:
            plain = reveal(goal.properties)
            if supply is None:
                return f"{goal.name}-id", dict(goal.properties)
            given = dict(supply(goal.type, goal.name, plain))
            id_ = str(given.pop("id", f"{goal.name}-id"))
            return id_, {**goal.properties, **given}

        return outputs


__all__ = ["Stack", "secret"]
