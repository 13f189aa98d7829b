"""Running steps: events around each provider call, failures as one line, parallel batches.

Deletes run in antichains as ``stepGenerator.ScheduleDeletes`` (``pkg/resource/deploy/
step_generator.go``) builds them: a resource is deleted only once every condemned resource that
depends on it is gone, and the deletes of one antichain run in parallel, as the step executor
runs independent steps (``pkg/resource/deploy/step_executor.go``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import ClassVar, TypeVar

from altostratus.testing._results import EventSink, StepEvent
from altostratus.testing.runner import engine_log
from altostratus.testing.runner.process import CheckFailure, call_failure
from altostratus.testing.runner.state import ResourceState

T = TypeVar("T")
R = TypeVar("R")

PARALLEL = 4 * (os.cpu_count() or 1)
"""Steps run at once, as the engine's default ``--parallel``: four per CPU (``defaultParallel``
in ``pkg/cmd/pulumi/operations/up.go``). The provider process serves four calls at a time
(``pulumi/dynamic/__main__.py``), under the engine as here."""
UNBOUNDED_OPS = frozenset({"check", "diff"})
"""Provider calls the step generator makes itself, outside the step executor's workers."""


class ResourceFailed(Exception):
    """A step failed: the message is the one line the engine would print for the resource.

    ``failures`` are a check's refused properties; ``reference`` the stack a
    ``StackReference`` named when the test gave no outputs for it. ``cancels`` tells whether
    the failure stops the steps not yet started; ``started`` whether the engine would have
    started (and reported) the step ``op`` names: not for a refusal made before any step.
    """

    cancels: ClassVar[bool] = True

    def __init__(
        self,
        urn: str,
        op: str,
        message: str,
        *,
        failures: Sequence[CheckFailure] = (),
        cause: BaseException | None = None,
        details: str = "",
        reference: str = "",
        started: bool = True,
    ) -> None:
        super().__init__(f"{urn}: {op} failed: {message}")
        self.started = started
        self.urn = urn
        self.op = op
        self.message = message
        self.failures = list(failures)
        self.cause = cause
        self.details = details or message
        self.reference = reference


class Canceled(ResourceFailed):
    """A step not taken because an earlier one failed: not a failure of its own.

    The engine cancels the step executor at the first failed step (``stepExecutor.
    cancelDueToError`` in ``pkg/resource/deploy/step_executor.go``; ``--continue-on-error`` is
    not modelled) and its step generator stops at the first error (``deploymentExecutor.
    Execute`` in ``deployment_executor.go``): steps already running finish, no other starts.
    """

    def __init__(self, urn: str) -> None:
        super().__init__(urn, "step", "canceled: an earlier step failed")


class Steps:
    """Reports each step to a sink and turns a failing provider call into ``ResourceFailed``.

    A failed step cancels the others: from then on every step refuses to start (``Canceled``),
    as the engine's step executor does once a step has failed. Steps already running finish.
    A provider's progress line about a step in flight is reported too (status ``progress``).
    """

    def __init__(
        self, sink: EventSink | None, *, preview: bool, parallel: int | None = None
    ) -> None:
        """``parallel``: the steps run at once (``--parallel``; by default ``PARALLEL``), as
        the step executor's workers bound them; checks and diffs are not steps."""
        self.sink = sink
        self.preview = preview
        self.canceled = False
        self.parallel = parallel or PARALLEL
        self._lock = threading.Lock()
        self._in_flight: dict[str, tuple[str, str, float]] = {}
        self._workers = threading.BoundedSemaphore(self.parallel)
        if sink is not None:
            engine_log.listen(self)

    def progress(self, urn: str, message: str) -> None:
        """A provider's line about the resource ``urn``: reported while its step runs."""
        with self._lock:
            running = self._in_flight.get(urn)
        if running is not None and self.sink is not None:
            op, type_, started = running
            elapsed = time.monotonic() - started
            self.sink(StepEvent(op, urn, type_, "progress", elapsed, None, self.preview, message))

    def cancel(self) -> None:
        self.canceled = True

    def first_failure(self) -> bool:
        """Cancel the steps; whether no step had failed before (only one caller is first)."""
        with self._lock:
            first, self.canceled = not self.canceled, True
        return first

    def check_canceled(self, urn: str) -> None:
        """Raise ``Canceled`` for ``urn`` once a step has failed."""
        if self.canceled:
            raise Canceled(urn)

    def emit(self, op: str, res_urn: str, type_: str, status: str, elapsed: float = 0.0,
             error: str | None = None) -> None:  # fmt: skip
        if self.sink is not None:
            self.sink(StepEvent(op, res_urn, type_, status, elapsed, error, self.preview))

    def _worker(self, op: str) -> AbstractContextManager[object]:
        return nullcontext() if op in UNBOUNDED_OPS else self._workers

    @contextmanager
    def step(self, op: str, urn: str, type_: str) -> Iterator[None]:
        with self._worker(op), self._running(op, urn, type_):
            yield

    @contextmanager
    def _running(self, op: str, urn: str, type_: str) -> Iterator[None]:
        self.check_canceled(urn)  # a step waiting for a worker is canceled as it starts
        started = time.monotonic()
        self.emit(op, urn, type_, "started")
        with self._lock:
            self._in_flight[urn] = (op, type_, started)
        try:
            yield
        except ResourceFailed as failed:
            if failed.cancels:
                self.cancel()
            self.emit(op, urn, type_, "failed", time.monotonic() - started, failed.message)
            raise
        except Exception as error:
            details = call_failure(error)
            # The engine prints the gRPC error's details whole: one line from our providers
            # (see providers/_base.py), a traceback under altostratus:debug or from a bug.
            message = details.strip()
            self.cancel()
            self.emit(op, urn, type_, "failed", time.monotonic() - started, message)
            raise ResourceFailed(urn, op, message, cause=error, details=details) from error
        finally:
            with self._lock:
                self._in_flight.pop(urn, None)
        self.emit(op, urn, type_, "done", time.monotonic() - started)


def antichains(condemned: Sequence[ResourceState]) -> list[list[ResourceState]]:
    """Deletion batches: each batch's members depend on none of the later batches' members.

    ``ScheduleDeletes``: repeatedly take the condemned resources none of whose dependencies is
    still condemned, then reverse the list of batches so dependents go first.
    """
    left = list(condemned)
    batches: list[list[ResourceState]] = []
    while left:
        urns = {res.urn for res in left}
        batch = [res for res in left if not (res.depends_on() & urns - {res.urn})]
        if not batch:  # a cycle cannot come from a program; delete the rest in order
            batch = list(left)
        batches.append(batch)
        left = [res for res in left if all(res is not done for done in batch)]
    batches.reverse()
    return batches


def in_parallel(
    work: Callable[[T], R], items: Sequence[T], workers: int = PARALLEL
) -> list[R | BaseException]:
    """``work`` over ``items``, ``workers`` at once; each item's result or the exception it
    raised."""

    def guarded(item: T) -> R | BaseException:
        try:
            return work(item)
        except Exception as error:
            return error

    if len(items) <= 1:
        return [guarded(item) for item in items]
    with ThreadPoolExecutor(max_workers=min(workers, len(items))) as pool:
        return list(pool.map(guarded, items))
