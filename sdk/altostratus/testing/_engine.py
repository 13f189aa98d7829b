"""The step generator of ``pulumi up`` and ``pulumi preview``, for dynamic resources.

``Deployment.register`` handles one resource as the program registers it and
``Deployment.finish`` runs what the engine leaves to the end of the deployment. Each rule names
the function of the engine's source it follows (``pkg/resource/deploy/step_generator.go`` unless
another file is named). Resources of other providers get the outputs the caller supplies;
component resources only record their inputs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import NoReturn

from pulumi.runtime.proto import provider_pb2

from altostratus.testing._process import DiffAnswer, ProviderProcess
from altostratus.testing._properties import (
    UNKNOWN,
    Properties,
    annotate_secrets,
    mark_secret_outputs,
    reveal,
)
from altostratus.testing._state import Goal, ResourceState, Snapshot, is_dynamic
from altostratus.testing._steps import (
    Canceled,
    EventSink,
    ResourceFailed,
    Steps,
    antichains,
    in_parallel,
)

OtherProvider = Callable[[Goal], tuple[str, Properties]]
"""Outputs of a resource another provider manages: its id and outputs, given its goal."""


def _supplied_nothing(goal: Goal) -> tuple[str, Properties]:
    return f"{goal.name}-id", dict(goal.properties)


class Deployment:
    """One ``pulumi up`` (or, with ``preview``, ``pulumi preview``) over an old snapshot."""

    def __init__(
        self,
        old: Snapshot,
        process: ProviderProcess,
        config: Properties,
        *,
        preview: bool = False,
        on_event: EventSink | None = None,
        other_provider: OtherProvider | None = None,
    ) -> None:
        self.old = old.copy()
        self.process = process
        self.config = config
        self.preview = preview
        self.steps = Steps(on_event, preview=preview)
        self.other_provider = other_provider or _supplied_nothing
        self._lock = threading.Lock()
        self._settled = threading.Condition(self._lock)
        self._registering = 0  # registrations in flight, which ``finish`` waits out
        self._olds = {res.urn: res for res in self.old.resources if not res.delete}
        self._news: list[ResourceState] = []
        self._urns: set[str] = set()  # URNs registered or read in this deployment (sg.urns)
        self._operated: set[str] = set()  # old URNs this deployment has taken over
        self._taken: dict[str, ResourceState] = {}  # new URN -> the old state it took over
        self._deleted: set[str] = set()  # deleted before their replacement (sg.deletes)
        self._condemned: list[ResourceState] = []  # replaced, deleted at the end
        self.operations: dict[str, str] = {}
        self.diffs: dict[str, DiffAnswer] = {}
        self.failures: list[ResourceFailed] = []

    # -- registration ---------------------------------------------------------------------------
    def register(self, goal: Goal) -> tuple[str, Properties]:
        """Step generation and execution for one registration; the id and outputs to return."""
        return self._counted(lambda: self._register(goal))

    def fail(self, failed: ResourceFailed) -> NoReturn:
        """Record a failure the program's monitor found, as the engine reports it, and raise it."""
        self._failed(failed)
        raise failed

    def _failed(self, failed: ResourceFailed) -> None:
        """Record a failure; from now on no step starts (see ``Canceled``)."""
        with self._lock:
            self.failures.append(failed)
        self.steps.cancel()

    def _claim(self, goal: Goal) -> None:
        """``stepGenerator.generateURN``: a URN registers (or reads) once per deployment."""
        with self._lock:
            if goal.urn in self._urns:
                message = f"Duplicate resource URN '{goal.urn}'; try giving it a unique name"
                raise ResourceFailed(goal.urn, "register", message)
            self._urns.add(goal.urn)

    def _register(self, goal: Goal) -> tuple[str, Properties]:
        # After a failure the engine generates no more steps (``deploymentExecutor.Execute``).
        self.steps.check_canceled(goal.urn)
        self._claim(goal)
        with self._lock:
            old = self._take_old(goal)
        if not goal.custom:
            # A component has no provider: "diffs exist" when its inputs changed (``diff``).
            same = old is not None and old.inputs == goal.properties
            op = "same" if same else ("update" if old else "create")
            self._record(goal, op, old.id if old else "", goal.properties, {})
            return "", {}
        if not is_dynamic(goal.type):
            return self._register_other(goal, old)
        if goal.import_id:
            return self._import(goal)
        return self._register_dynamic(goal, old)

    def _take_old(self, goal: Goal) -> ResourceState | None:
        """The old state for this goal, by URN or by one of its aliases (``getOldResource``)."""
        for urn in (goal.urn, *goal.aliases):
            old = self._olds.get(urn)
            if old is not None and urn not in self._operated:
                self._operated.add(urn)
                self._taken[goal.urn] = old
                return old
        return None

    def _register_other(self, goal: Goal, old: ResourceState | None) -> tuple[str, Properties]:
        if old is not None and old.inputs == goal.properties:
            self._record(goal, "same", old.id, goal.properties, old.outputs)
            return old.id, old.outputs
        if self.preview:
            # A preview creates nothing: the new state holds the inputs, the id is not known.
            op = "update" if old else "create"
            return self._record(goal, op, old.id if old else "", goal.properties, goal.properties)
        id_, outputs = self.other_provider(goal)
        outputs = mark_secret_outputs(outputs, goal.properties, goal.additional_secret_outputs)
        self._record(goal, "update" if old else "create", id_, goal.properties, outputs)
        return id_, outputs

    def _import(self, goal: Goal) -> tuple[str, Properties]:
        # ``ImportStep.Apply`` (step.go) reads the resource with no inputs and no state, so the
        # dynamic provider process cannot find ``__provider`` and fails (``KeyError``).
        with self.steps.step("import", goal.urn, goal.type):
            self.process.read(goal.urn, goal.import_id, {}, {})
        raise ResourceFailed(goal.urn, "import", "import read no provider")  # pragma: no cover

    def _check(self, goal: Goal, olds: Properties) -> Properties:
        """``Check`` with the program's properties; secrets marked again (``annotateSecrets``)."""
        with self.steps.step("check", goal.urn, goal.type):
            inputs, failures = self.process.check_result(
                goal.urn, reveal(olds), reveal(goal.properties)
            )
            if failures:
                # ``issueCheckErrors`` reports each failure; the resource is invalid and the
                # step generator bails (``continueStepsFromImport``).
                reasons = "; ".join(f"{f.property}: {f.reason}" for f in failures)
                raise ResourceFailed(goal.urn, "check", reasons, failures=failures)
        return annotate_secrets(inputs, goal.properties)

    def _register_dynamic(self, goal: Goal, old: ResourceState | None) -> tuple[str, Properties]:
        with self._lock:
            recreating = old is not None and old.urn in self._deleted
        # ``continueStepsFromImport``: no olds when the resource is new, was deleted earlier in
        # this deployment (a delete-before-replace of a resource it depends on), or was only read
        # (``External``): Pulumi does not own its inputs.
        fresh = old is None or recreating or old.external
        inputs = self._check(goal, {} if old is None or fresh else old.inputs)
        if old is None:
            return self._create(goal, inputs, "create")
        if recreating:
            # Case 1 "recreating": already deleted, so it is replaced without a diff.
            return self._create(goal, inputs, "replace")
        if old.external:
            # Case 2 "wasExternal": a resource the stack only read is now declared. Pulumi may
            # not touch the one it read, so it creates one in its place; the read one is
            # "deleted" at the end, which for an external resource only forgets it.
            self._condemn(old)
            return self._create(goal, inputs, "replace")
        if old.pending_replacement:
            # ``continueStepsFromDiff``: deleted by an earlier, failed deployment's
            # delete-before-replace, so replaced whatever the diff says, with nothing to delete.
            return self._create(goal, self._check(goal, {}), "replace")
        diff = self._diff(goal.urn, old, inputs)
        with self._lock:
            self.diffs[goal.urn] = diff
        if not diff.some:
            # ``SameStep.Apply`` (step.go) keeps the old id and outputs and the new inputs.
            return self._record(goal, "same", old.id, inputs, old.outputs)
        if not diff.replaces:
            return self._update(goal, old, inputs)
        return self._replace(goal, old, diff)

    def _diff(self, urn: str, old: ResourceState, inputs: Properties) -> DiffAnswer:
        with self.steps.step("diff", urn, old.type):
            diff = self.process.diff(
                urn, old.id, reveal(old.outputs), reveal(inputs), reveal(old.inputs)
            )
        if diff.changes == provider_pb2.DiffResponse.DIFF_UNKNOWN:
            # ``diffResource``: "changes unknown" makes the engine diff the inputs itself.
            olds, news = reveal(old.inputs), reveal(inputs)
            changed = sorted(k for k in olds.keys() | news.keys() if olds.get(k) != news.get(k))
            some = provider_pb2.DiffResponse.DIFF_SOME
            none = provider_pb2.DiffResponse.DIFF_NONE
            diff.changes = some if changed else none
            diff.changed_keys = changed
        return diff

    def _create(self, goal: Goal, inputs: Properties, op: str) -> tuple[str, Properties]:
        if self.preview:
            # ``provider.Create`` (provider_plugin.go): a provider without preview support
            # gives its inputs back as the state during a preview.
            return self._record(goal, op, "", inputs, inputs)
        step = "create-replacement" if op == "replace" else "create"
        with self.steps.step(step, goal.urn, goal.type):
            id_, outs = self.process.create(goal.urn, reveal(inputs))
        outputs = annotate_secrets(outs, inputs)
        return self._record(goal, op, id_, inputs, outputs)

    def _update(self, goal: Goal, old: ResourceState, inputs: Properties) -> tuple[str, Properties]:
        if self.preview:
            return self._record(goal, "update", old.id, inputs, inputs)
        with self.steps.step("update", goal.urn, goal.type):
            outs = self.process.update(goal.urn, old.id, reveal(old.outputs), reveal(inputs))
        return self._record(goal, "update", old.id, inputs, annotate_secrets(outs, inputs))

    def _replace(self, goal: Goal, old: ResourceState, diff: DiffAnswer) -> tuple[str, Properties]:
        # ``continueStepsFromDiff``: a replacement recomputes the defaults, so it is checked
        # again with no olds (fresh auto-names).
        inputs = self._check(goal, {})
        delete_first = diff.delete_before_replace
        if goal.delete_before_replace is not None:
            delete_first = goal.delete_before_replace
        if not delete_first:
            # Create the replacement now; the old one is deleted after every other step.
            self._condemn(old)
            return self._create(goal, inputs, "replace")
        # Delete-before-replace: first the dependents that the replacement would replace
        # (``calculateDependentReplacements``), in reverse dependency order, then the old one.
        with self._lock:
            dependents = self._dependent_replacements(old)
        for res in [*reversed(dependents), old]:
            self._delete(res, "delete-replaced")
            with self._lock:
                self._deleted.add(res.urn)
                # ``DeleteStep.Apply``: once deleted, the old state stays in the snapshot marked
                # ``PendingReplacement`` until its replacement is created.
                res.pending_replacement = not self.preview
        return self._create(goal, inputs, "replace")

    def _condemn(self, old: ResourceState) -> None:
        """Mark ``old`` for deletion at the end of the deployment (``CreateStep.Apply`` sets
        ``Delete`` on the state it replaced)."""
        with self._lock:
            old.delete = True
            self._condemned.append(old)

    def _dependent_replacements(self, root: ResourceState) -> list[ResourceState]:
        """Old resources depending on ``root`` that its replacement would replace, in order.

        A dependent qualifies when a property fed by a replaced resource, made unknown, makes
        its provider's diff ask for a replacement; resources already registered in this
        deployment cannot depend on the root and are skipped (``impossibleDependents``).
        """
        replaced = {root.urn}
        found: list[ResourceState] = []
        registered = {res.urn for res in self._news} | self._deleted
        for res in self.old.resources:
            if res.delete or res.urn in registered or not (res.depends_on() & replaced):
                continue
            if not res.custom or res.external or not is_dynamic(res.type):
                continue
            unknown = {
                key
                for key, urns in res.property_dependencies.items()
                if replaced.intersection(urns)
            }
            if not unknown:
                continue
            news = {k: (UNKNOWN if k in unknown else v) for k, v in res.inputs.items()}
            if self._diff(res.urn, res, news).replaces:
                replaced.add(res.urn)
                found.append(res)
        return found

    def _record(
        self, goal: Goal, op: str, id_: str, inputs: Properties, outputs: Properties
    ) -> tuple[str, Properties]:
        """Store the new state (``continueExecuteStep`` marks its secret outputs)."""
        outputs = mark_secret_outputs(outputs, inputs, goal.additional_secret_outputs)
        state = ResourceState(
            urn=goal.urn,
            type=goal.type,
            id=id_,
            inputs=inputs,
            outputs=outputs,
            custom=goal.custom,
            parent=goal.parent,
            dependencies=list(goal.dependencies),
            property_dependencies=dict(goal.property_dependencies),
            additional_secret_outputs=list(goal.additional_secret_outputs),
        )
        with self._lock:
            self._news.append(state)
            self.operations[goal.urn] = op
        return id_, outputs

    # -- reads ----------------------------------------------------------------------------------
    def read(self, goal: Goal, id_: str) -> tuple[str, Properties]:
        """``ResourceOptions(id=...)``: ``ReadStep.Apply`` (step.go) reads with the given
        properties as both inputs and state, and fails when nothing has that id. An id not
        known yet (a preview) is not read: the resource has no outputs yet."""
        return self._counted(lambda: self._read(goal, id_))

    def _counted(self, step: Callable[[], tuple[str, Properties]]) -> tuple[str, Properties]:
        """Run one registration's ``step`` counted among the registrations in progress (which
        the deployment waits to settle), a failure recorded as the engine reports it."""
        with self._lock:
            self._registering += 1
        try:
            return step()
        except Canceled:
            raise
        except ResourceFailed as failed:
            self._failed(failed)
            raise
        finally:
            with self._lock:
                self._registering -= 1
                self._settled.notify_all()

    def _read(self, goal: Goal, id_: str) -> tuple[str, Properties]:
        self.steps.check_canceled(goal.urn)
        self._claim(goal)
        props = reveal(goal.properties)
        found, outs = id_, Properties()
        if id_ != UNKNOWN:
            with self.steps.step("read", goal.urn, goal.type):
                found, outs, _ = self.process.read(goal.urn, id_, props, props)
                if not found:
                    raise ResourceFailed(goal.urn, "read", f"resource '{id_}' does not exist")
        with self._lock:
            old = self._olds.get(goal.urn)
        if old is not None and not old.external and old.id != id_:
            # ``GenerateReadSteps``: reading, under the URN of a resource the stack manages,
            # another resource replaces it: the managed one is deleted at the end of the
            # deployment. Reading the same id only relinquishes it (no delete).
            self._condemn(old)
        outputs = mark_secret_outputs(
            annotate_secrets(outs, goal.properties), goal.properties, goal.additional_secret_outputs
        )
        state = ResourceState(
            urn=goal.urn, type=goal.type, id=found, inputs=goal.properties, outputs=outputs,
            external=True, parent=goal.parent, dependencies=list(goal.dependencies),
        )  # fmt: skip
        with self._lock:
            self._operated.add(goal.urn)
            self._news.append(state)
            self.operations[goal.urn] = "read"
        return found, outputs

    # -- the end of the deployment --------------------------------------------------------------
    def _delete(self, res: ResourceState, op: str) -> None:
        if self.preview or res.external or not is_dynamic(res.type) or not res.custom:
            # ``DeleteStep.Apply``: deleting an External resource is a no-op.
            return
        if res.pending_replacement:
            # ``GenerateDeletes``: already deleted, it is only dropped from the state
            # (``RemovePendingReplaceStep``).
            return
        with self.steps.step(op, res.urn, res.type):
            self.process.delete(res.urn, res.id, reveal(res.outputs))

    def finish(self, *, failed: bool = False) -> Snapshot:
        """Delete what was replaced or is no longer declared, dependents first.

        ``GenerateDeletes``: old resources pending deletion, replaced ones, and those the
        program no longer registers; ``ScheduleDeletes`` orders them. After a failure the
        engine deletes nothing and keeps every old resource not yet superseded in the state
        (the replaced ones marked for deletion, those a delete-before-replace deleted marked
        pending replacement), so the next ``up`` finishes the job. A preview
        only announces the deletes. ``failed`` tells that the program itself failed.

        The new state lists the resources this deployment registered, then the old ones it
        keeps (``SnapshotManager.Snap`` in ``pkg/backend/snapshot.go``).

        A failed program leaves steps running (a create it no longer waits for): as the engine's
        step executor does, ``finish`` waits for them and keeps what they made in the state.
        """
        with self._lock:
            self._settled.wait_for(lambda: self._registering == 0)
            news = list(self._news)
            recorded = {res.urn for res in news}
            unclaimed = [r for urn, r in self._olds.items() if urn not in self._operated]
            unfinished = [old for urn, old in self._taken.items() if urn not in recorded]
            condemned = [
                res
                for res in self.old.resources
                if res.delete or any(res is other for other in unclaimed)
            ]
        if self.preview:
            for res in condemned:
                if not res.delete:
                    self.operations.setdefault(res.urn, "delete")
            return self.old
        if self.failures or failed:
            kept = [
                res
                for res in self.old.resources
                if res.delete or any(res is other for other in [*unclaimed, *unfinished])
            ]
            return Snapshot(news + kept, dict(self.config))
        remaining: list[ResourceState] = []
        batches = antichains(condemned)
        for index, batch in enumerate(batches):
            results = in_parallel(lambda res: self._delete(res, self._delete_op(res)), batch)
            for res, result in zip(batch, results, strict=True):
                if isinstance(result, Canceled):
                    remaining.append(res)  # not deleted: an earlier step failed
                elif isinstance(result, BaseException):
                    self.failures.append(_as_failure(res, result))
                    remaining.append(res)
                elif not res.delete:
                    self.operations.setdefault(res.urn, "delete")
            if self.failures:
                remaining += [res for later in batches[index + 1 :] for res in later]
                break
        kept = [res for res in self.old.resources if any(res is other for other in remaining)]
        return Snapshot(news + kept, dict(self.config))

    def _delete_op(self, res: ResourceState) -> str:
        return "delete-replaced" if res.delete else "delete"


def _as_failure(res: ResourceState, error: BaseException) -> ResourceFailed:
    if isinstance(error, ResourceFailed):
        return error
    return ResourceFailed(res.urn, "delete", str(error), cause=error)
