"""What the step generator keeps about one deployment, and the registrations in progress.

``Ledger`` holds the old and new states and the step generator's maps
(``pkg/resource/deploy/step_generator.go``: ``urns``, ``deletes``, ``replaces``, the aliases a
resource was found under), which the deployment (``deployment``) hands to each of its phases:
replacements (``replacements``), reads (``reads``) and the deletes at the end (``deletes``).
It counts the registrations in progress, which the end of the deployment waits out, and records
each failure as the engine reports it.

Registrations run concurrently: the ledger's state is this module's alone, behind one lock,
and the phases read and change it only through the methods below.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from altostratus.testing._properties import Properties, mark_secret_outputs
from altostratus.testing._results import EventSink
from altostratus.testing.runner.aliases import Aliases
from altostratus.testing.runner.fronts import Calls
from altostratus.testing.runner.process import DiffAnswer
from altostratus.testing.runner.state import Goal, ResourceState, Snapshot
from altostratus.testing.runner.steps import Canceled, ResourceFailed, Steps

OtherProvider = Callable[[Goal], tuple[str, Properties]]
"""Outputs of a resource another provider manages: its id and outputs, given its goal."""


def _supplied_nothing(goal: Goal) -> tuple[str, Properties]:
    return f"{goal.name}-id", dict(goal.properties)


@dataclass(frozen=True)
class Settled:
    """The ledger once no registration is in progress: what the end of the deployment needs."""

    news: list[ResourceState]
    """The new states, in the order they were recorded."""
    unclaimed: list[ResourceState]
    """Old resources no registration took over: no longer declared."""
    unfinished: list[ResourceState]
    """Old resources taken over by a registration that recorded no new state (it failed)."""
    deleted: frozenset[str]
    """URNs deleted before their replacement (delete-before-replace)."""


class Ledger:
    """The record of one ``pulumi up`` (or, with ``preview``, ``pulumi preview``) over an old
    snapshot, with what its steps use: the provider process, the steps, the configuration.

    ``operations``, ``diffs`` and ``failures`` are read by whoever ran the deployment; they
    change only through the methods here."""

    def __init__(
        self,
        old: Snapshot,
        process: Calls,
        config: Properties,
        *,
        preview: bool = False,
        on_event: EventSink | None = None,
        other_provider: OtherProvider | None = None,
        parallel: int | None = None,
    ) -> None:
        self.old = old.copy()
        self.process = process
        self.config = config
        self.preview = preview
        self.steps = Steps(on_event, preview=preview, parallel=parallel)
        self.other_provider = other_provider or _supplied_nothing
        self.aliases = Aliases()
        self._lock = threading.Lock()
        self._settled = threading.Condition(self._lock)
        self._registering = 0  # registrations in flight, which ``finish`` waits out
        self._olds = {res.urn: res for res in self.old.resources if not res.delete}
        self._news: list[ResourceState] = []
        self._urns: set[str] = set()  # URNs registered or read in this deployment (sg.urns)
        self._operated: set[str] = set()  # old URNs this deployment has taken over
        self._taken: dict[str, ResourceState] = {}  # new URN -> the old state it took over
        self._deleted: set[str] = set()  # deleted before their replacement (sg.deletes)
        self._replaced: set[str] = set()  # decided to be replaced (sg.replaces)
        self.operations: dict[str, str] = {}
        self.diffs: dict[str, DiffAnswer] = {}
        self.failures: list[ResourceFailed] = []

    def fail(self, failed: ResourceFailed) -> NoReturn:
        """Record a failure the program's monitor found, as the engine reports it, and raise it."""
        self.failed(failed)
        raise failed

    def failed(self, failed: ResourceFailed) -> None:
        """Record a failure; from now on no step starts (see ``Canceled``)."""
        self.report(failed)
        if failed.cancels:
            self.steps.cancel()

    def report(self, failed: ResourceFailed) -> None:
        """Record a failure that stops nothing (a preview shows the rest)."""
        with self._lock:
            self.failures.append(failed)

    def counted(self, step: Callable[[], tuple[str, Properties]]) -> tuple[str, Properties]:
        """Run one registration's ``step`` counted among the registrations in progress (which
        the deployment waits to settle), a failure recorded as the engine reports it."""
        with self._lock:
            self._registering += 1
        try:
            return step()
        except Canceled:
            raise
        except ResourceFailed as failed:
            self.failed(failed)
            raise
        finally:
            with self._lock:
                self._registering -= 1
                self._settled.notify_all()

    def claim(self, goal: Goal) -> None:
        """``stepGenerator.generateURN``: a URN registers (or reads) once per deployment."""
        with self._lock:
            if goal.urn in self._urns:
                message = f"Duplicate resource URN '{goal.urn}'; try giving it a unique name"
                raise ResourceFailed(goal.urn, "register", message)
            self._urns.add(goal.urn)

    def take_old(self, goal: Goal) -> ResourceState | None:
        """``getOldResource``: the old state for this goal, by URN, then by its aliases (its
        own, and those it inherits from a parent found under an alias)."""
        aliases = self.aliases.generate(goal.urn, goal.type, goal.name, goal.parent, goal.aliases)
        with self._lock:
            for urn in (goal.urn, *aliases):
                old = self._olds.get(urn)
                if old is not None and urn not in self._operated:
                    self._operated.add(urn)
                    self._taken[goal.urn] = old
                    if urn != goal.urn:
                        self.aliases.found_under(goal.urn, urn)
                    return old
        return None

    def old_state(self, urn: str) -> ResourceState | None:
        """The old state of ``urn`` (not one marked for deletion)."""
        with self._lock:
            return self._olds.get(urn)

    def condemn(self, old: ResourceState) -> None:
        """Mark ``old`` for deletion at the end of the deployment (``CreateStep.Apply`` sets
        ``Delete`` on the state it replaced once the replacement exists)."""
        with self._lock:
            old.delete = True

    def record(
        self,
        goal: Goal,
        op: str,
        id_: str,
        inputs: Properties,
        outputs: Properties,
        *,
        external: bool = False,
    ) -> tuple[str, Properties]:
        """Store the new state (``continueExecuteStep`` marks its secret outputs), with the
        options the engine keeps in it (``generateResourceSteps``' new state)."""
        outputs = mark_secret_outputs(outputs, inputs, goal.additional_secret_outputs)
        state = ResourceState(
            urn=goal.urn,
            type=goal.type,
            id=id_,
            inputs=inputs,
            outputs=outputs,
            custom=goal.custom,
            external=external,
            parent=goal.parent,
            dependencies=list(goal.dependencies),
            property_dependencies=dict(goal.property_dependencies),
            additional_secret_outputs=list(goal.additional_secret_outputs),
            protect=bool(goal.protect),
            retain_on_delete=bool(goal.retain_on_delete),
            deleted_with=goal.deleted_with,
            replace_with=list(goal.replace_with),
            ignore_changes=list(goal.ignore_changes),
            replacement_trigger=goal.replacement_trigger,
            import_id=goal.import_id,
            provider=goal.provider,
        )
        with self._lock:
            if external:
                self._operated.add(goal.urn)
            self._news.append(state)
            self.operations[goal.urn] = op
        return id_, outputs

    def note_diff(self, urn: str, diff: DiffAnswer) -> None:
        """The provider's diff of ``urn``, for whoever ran the deployment."""
        with self._lock:
            self.diffs[urn] = diff

    def note_deleted(self, res: ResourceState) -> None:
        """``res``, no longer declared, was deleted (or, read with ``get``, discarded) at the end
        of the deployment."""
        with self._lock:
            self.operations.setdefault(res.urn, "discard" if res.external else "delete")

    def mark_replaced(self, urn: str) -> None:
        """``urn`` is to be replaced (``sg.replaces``)."""
        with self._lock:
            self._replaced.add(urn)

    def replaced(self) -> set[str]:
        """The URNs decided to be replaced so far."""
        with self._lock:
            return set(self._replaced)

    def mark_deleted(self, res: ResourceState) -> None:
        """A delete-before-replace deleted ``res`` (``sg.deletes``). ``DeleteStep.Apply``: once
        deleted, the old state stays in the snapshot marked ``PendingReplacement`` until its
        replacement is created."""
        with self._lock:
            self._deleted.add(res.urn)
            res.pending_replacement = not self.preview

    def deleted(self) -> set[str]:
        """The URNs deleted before their replacement so far."""
        with self._lock:
            return set(self._deleted)

    def registered(self) -> set[str]:
        """The URNs that have a new state in this deployment so far."""
        with self._lock:
            return {res.urn for res in self._news}

    def settle(self) -> Settled:
        """Wait for the registrations in progress to end; what the deployment then holds."""
        with self._lock:
            self._settled.wait_for(lambda: self._registering == 0)
            news = list(self._news)
            recorded = {res.urn for res in news}
            return Settled(
                news=news,
                unclaimed=[r for urn, r in self._olds.items() if urn not in self._operated],
                unfinished=[old for urn, old in self._taken.items() if urn not in recorded],
                deleted=frozenset(self._deleted),
            )
