"""Running a Pulumi program in this process as the Python language host runs it.

``pulumi-language-python-exec`` (``sdk/python/cmd`` in Pulumi's repository) configures the
runtime's settings (monitor, project, stack, organization, dry run, parallelism), gives the
event loop a default executor of four threads per ``--parallel`` step, and runs the program with
``pulumi.runtime.run_in_stack``. So here: the program runs inside the event loop (a top-level
``asyncio.get_running_loop()`` works), ``pulumi.run(main)`` registers an entry point awaited
after the program's module code, the root ``Stack`` registers its outputs as the SDK serializes
them for the engine (``Stack._finish``: resources turned into their properties, ``None`` left
out, secrets marked where they are), and a program that raises still waits for the
registrations it started before its error surfaces (``run_pulumi_func``).
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import warnings
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pulumi
from pulumi.runtime.mocks import MockEngine
from pulumi.runtime.settings import SETTINGS, Settings, configure
from pulumi.runtime.stack import run_in_stack

from altostratus.testing._project import ConfigValue, full_key, run_project
from altostratus.testing._properties import Properties, is_secret, is_unknown, secret
from altostratus.testing._results import RESOURCE_MARK, OutputValue, secret_paths
from altostratus.testing.runner.steps import PARALLEL

if TYPE_CHECKING:
    from altostratus.testing.runner.monitor import EngineMonitor

Program = Callable[[], None] | Path
"""A function declaring resources, or a Pulumi project directory holding ``__main__.py``."""

ORGANIZATION = "organization"
"""What ``pulumi.get_organization()`` answers: a local backend's one organization."""


def provider_inputs(project: str, config: Mapping[str, ConfigValue]) -> Properties:
    """The dynamic provider's inputs: the whole configuration, namespaced, secrets marked
    (``GetPackageConfig`` in ``pkg/resource/deploy/target.go``)."""
    return {
        full_key(project, key): secret(item.value) if item.secret else item.value
        for key, item in config.items()
    }


def stack_outputs(registered: Mapping[str, Any]) -> dict[str, OutputValue]:
    """The stack's outputs (as registered, in JSON) as the Automation API reads them back.

    ``LocalWorkspace.stack_outputs`` runs ``pulumi stack output --json`` with and without
    ``--show-secrets``: an output is secret when the masked value is ``"[secret]"`` as a whole,
    so a secret nested in a plain object leaves the output plain; its place is kept in
    ``secret_paths``. The JSON writes integral
    numbers without a fraction and objects' keys in order. A preview's values not known yet are
    None.
    """
    outputs = {}
    for key in sorted(registered):
        value = registered[key]
        whole = is_secret(value)
        inside = () if whole else tuple(secret_paths(value, is_secret))
        outputs[key] = OutputValue(_as_json(value), whole, inside)
    return outputs


def _as_json(value: Any) -> Any:
    if is_secret(value):
        return _as_json(value.get("value"))
    if isinstance(value, dict):
        return {k: _as_json(value[k]) for k in sorted(value) if k != RESOURCE_MARK}
    if isinstance(value, list):
        return [_as_json(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None if is_unknown(value) else value


def run(
    program: Program,
    monitor: EngineMonitor,
    *,
    project: str,
    stack: str,
    config: Mapping[str, ConfigValue],
    preview: bool,
    parallel: int = PARALLEL,
) -> dict[str, OutputValue]:
    """Run ``program`` to its end in a fresh Pulumi runtime; the stack's outputs."""
    return contextvars.Context().run(
        _run, program, monitor, project, stack, dict(config), preview, parallel
    )


def _run(
    program: Program,
    monitor: EngineMonitor,
    project: str,
    stack: str,
    config: dict[str, ConfigValue],
    preview: bool,
    parallel: int,
) -> dict[str, OutputValue]:
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(_quiet_about_reported_failures)
    executor = ThreadPoolExecutor(max_workers=parallel * 4)
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    _forget_earlier_runs()
    failed = True
    try:
        values = {full_key(project, key): item.value for key, item in config.items()}
        secrets = [full_key(project, key) for key, item in config.items() if item.secret]
        pulumi.runtime.set_all_config(values, secrets)
        root = str(program if isinstance(program, Path) else Path.cwd())
        settings = Settings(
            project=project,
            stack=stack,
            monitor=monitor,
            engine=MockEngine(None),
            parallel=parallel,
            dry_run=preview,
            organization=ORGANIZATION,
            root_directory=root,
        )
        configure(settings)
        main = (lambda: run_project(program)) if isinstance(program, Path) else program
        loop.run_until_complete(run_in_stack(main))
        failed = False
        return stack_outputs(monitor.stack_outputs)
    finally:
        monitor.close()
        _forget_earlier_runs()
        with warnings.catch_warnings():
            # A failed program leaves Outputs whose coroutines never ran: they are dropped here,
            # quietly, rather than each warning that it was never awaited (the failure is
            # reported).
            warnings.filterwarnings("ignore", "coroutine .* was never awaited", RuntimeWarning)
            _cancel_the_rest(loop)
            asyncio.set_event_loop(None)
            loop.close()
            if failed:
                gc.collect()
        # Registrations still running finish on their own; the deployment waits for them.
        executor.shutdown(wait=False)


def _cancel_the_rest(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what a failed program left pending and let the cancellations run, as
    ``asyncio.run`` does before it closes its loop."""
    tasks = asyncio.all_tasks(loop)
    for task in tasks:
        task.cancel()
    if tasks:
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))


def _quiet_about_reported_failures(
    loop: asyncio.AbstractEventLoop, context: dict[str, Any]
) -> None:
    """A failed program or resource fails every output that needs it; the operation's result
    reports the failure once, so the futures nobody awaited need not report it again (the
    language host silences asyncio's log for the same reason)."""
    if "exception" in context:
        return
    loop.default_exception_handler(context)


def _forget_earlier_runs() -> None:
    """Drop what a run left in the SDK's process-wide settings (as ``pulumi.runtime.test``
    does): a failed program leaves tasks of its closed event loop there."""
    SETTINGS.rpc_manager.clear()
    SETTINGS.outputs.clear()
