"""Running projects end to end on an emulator in this process, with ``altostratus.testing``.

Each project's stack goes up (or is previewed) in the order given; a later project's
``StackReference("organization/<project>/<stack>")`` reads an earlier one's outputs, as with
``pulumi login --local``. At the end every stack is destroyed, the last first, whatever
happened before; or, kept, the emulator serves what the run made until Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import signal
import subprocess
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import TextIO

from altostratus.cli._failure import fail
from altostratus.cli._progress import Progress
from altostratus.cli._project import Project
from altostratus.emulator import Emulator
from altostratus.emulator.serving.server import ListenError
from altostratus.testing import DeploymentFailed, ProviderProcesses, Result, Stack, secret

STACK = "dev"
BANNER = (
    "altostratus run: the library's own runner (altostratus.testing), not the Pulumi engine; "
    "the state lives in this process only."
)


@dataclass
class Options:
    config: dict[str, str] = field(default_factory=dict)
    preview: bool = False
    keep: bool = False
    show_secrets: bool = False
    port: int = 0
    s3_port: int = 0
    #: A provider process already started (``ProviderProcesses.warm``).
    provider: subprocess.Popen[bytes] | None = None


class _PendingTasks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "Task was destroyed but it is pending" not in record.getMessage()


@contextmanager
def quiet_cancelled_tasks() -> Iterator[None]:
    """Silence what a failed program leaves behind: its pending Pulumi tasks, cancelled with
    its event loop, and their coroutines never awaited. The failure itself is reported."""
    hide = _PendingTasks()
    logger = logging.getLogger("asyncio")
    logger.addFilter(hide)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r"coroutine .* was never awaited", RuntimeWarning)
        try:
            yield
        finally:
            gc.collect()
            logger.removeFilter(hide)


def reference_name(project: Project) -> str:
    """How another program names this project's stack in a ``StackReference``."""
    return f"organization/{project.name}/{STACK}"


def deploy(projects: Sequence[Project], options: Options, out: TextIO | None = None) -> int:
    """Run the projects on a new emulator; 0 when all went up (and came down), else 1."""
    progress = Progress(out or sys.stdout, show_secrets=options.show_secrets)
    progress.say(BANNER)
    processes = ProviderProcesses()
    processes.warm(options.provider)  # the provider's interpreter starts while the emulator does
    emulator = Emulator(port=options.port, s3_port=options.s3_port)
    try:
        emulator.start()
    except ListenError as error:
        emulator.stop()
        processes.close()
        return fail(f"{error}; pass another --port or --s3-port, or 0 for a free one")
    progress.say(f"Emulator: API {emulator.api_url}, S3 {emulator.s3_url} (in this process)")
    stacks: list[tuple[Project, Stack]] = []
    try:
        with quiet_cancelled_tasks():
            failure = _up(projects, options, emulator, processes, progress, stacks)
        if options.keep:
            _serve(emulator, progress)
            destroyed = 0
        else:
            destroyed = _destroy(stacks, progress)
        return failure.report() if failure is not None else destroyed
    finally:
        processes.close()
        emulator.stop()


def _up(
    projects: Sequence[Project],
    options: Options,
    emulator: Emulator,
    processes: ProviderProcesses,
    progress: Progress,
    stacks: list[tuple[Project, Stack]],
) -> FailureReport | None:
    references: dict[str, dict[str, object]] = {}
    for project in projects:
        stack = Stack(
            project,
            emulator=emulator,
            config=options.config,
            references=references,
            on_event=progress.event,
            project=project.name,
            stack=STACK,
            processes=processes,
        )
        stacks.append((project, stack))
        verb = "Previewing update" if options.preview else "Updating"
        progress.begin(f"\n{verb} {project.name} ({STACK}) from {project.given}:")
        try:
            result = stack.preview() if options.preview else stack.up()
        except DeploymentFailed as failed:
            progress.finish(failed.result, preview=options.preview)
            return FailureReport.of(project, failed.result)
        progress.finish(result, preview=options.preview)
        references[reference_name(project)] = {
            name: secret(output.value) if output.secret else output.value
            for name, output in result.outputs.items()
        }
    return None


@dataclass
class FailureReport:
    """What failed, said at the very end: one line each (the program's traceback first)."""

    lines: list[str]
    traceback: str = ""

    @classmethod
    def of(cls, project: Project, result: Result) -> FailureReport:
        """A property a provider refused, the program's error, or a resource's failed step."""
        checks = [error for error in result.errors if error.op == "check"]
        if checks:
            return cls([
                f"{check.kind} {check.name!r} of {project.name}: invalid input {check.property}: "
                f"{check.message}"
                for check in checks
            ])  # fmt: skip
        for error in result.errors:
            if error.reference:
                return cls([
                    f"{project.name} reads the stack {error.reference!r}, which this run does not "
                    f"make: name its project first: altostratus run <its project> {project.given}"
                ])  # fmt: skip
        for error in result.errors:
            if error.op == "program":
                message = error.message
                if project.traceback:
                    message += " (the program's traceback is above)"
                return cls([f"the program of {project.name} failed: {message}"], project.traceback)
        return cls(list(result.failures))

    def report(self) -> int:
        if self.traceback:
            print(self.traceback, end="", file=sys.stderr)
        for line in self.lines:
            fail(line)
        return 1


def _destroy(stacks: list[tuple[Project, Stack]], progress: Progress) -> int:
    status = 0
    for project, stack in reversed(stacks):
        if not any(not res.external for res in stack.state.resources):
            continue
        progress.begin(f"\nDestroying {project.name} ({STACK}):")
        try:
            result = stack.destroy()
        except DeploymentFailed as failed:
            progress.finish(failed.result)
            for line in failed.result.failures:
                fail(line)
            status = 1
            continue
        progress.finish(result)
    return status


def _serve(emulator: Emulator, progress: Progress) -> None:
    """Serve what the run made until Ctrl-C or SIGTERM, saying how to reach it.

    Both signals are taken before the first line is said: a Ctrl-C that arrives the moment
    the address is printed still ends in "Emulator stopped.", never in a silent exit.
    """
    url, key = emulator.api_url, emulator.api_key
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    restore: list[Callable[[], object]] = []
    for taken in (signal.SIGINT, signal.SIGTERM):
        # Not on the main thread, signals stay the caller's: its Ctrl-C is a KeyboardInterrupt.
        with contextlib.suppress(ValueError):
            before = signal.signal(taken, on_signal)
            restore.append(functools.partial(signal.signal, taken, before))
    try:
        progress.say(
            "\nThe emulator keeps running with what this run made, until Ctrl-C (or SIGTERM to"
            " this process); stopping it forgets everything.\n"
            f"    API:     {url}\n"
            f"    S3:      {emulator.s3_url}\n"
            f"    API key: {key}\n"
            "Reach it from a shell (the client and `altostratus quota`):\n"
            f"    export ALTOSTRATUS_API_URL={url} ALTOSTRATUS_API_KEY={key}\n"
            "or from a Pulumi stack:\n"
            f"    pulumi config set altostratus:apiUrl {url}\n"
            f"    pulumi config set --secret altostratus:apiKey {key}"
        )
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        for undo in restore:
            undo()
    progress.say("Emulator stopped.")
