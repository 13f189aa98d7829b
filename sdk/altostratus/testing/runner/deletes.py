"""Delete steps: what ``DeleteStep.Apply`` (``pkg/resource/deploy/step.go``) does, and the order
``stepGenerator.ScheduleDeletes`` runs them in.

A delete that is not part of a replacement refuses a protected resource before any provider
call (``deleteProtectedError``); the step executor goes on past that refusal, so every protected
resource is reported and the other deletes still run (``stepExecutor.cancelDueToError`` in
``step_executor.go``). A preview calls no provider. A resource read with ``get`` (external: its
step is ``discard``), one
with ``retain_on_delete``, or one ``deleted_with`` a resource this operation also deletes is
dropped from the state without a provider call, as is one a delete-before-replace already
deleted (``RemovePendingReplaceStep``).

``finish`` is the end of a deployment (handed its ledger): the replaced resources and those no
longer declared, deleted; ``operations`` runs the same steps for ``pulumi destroy``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from altostratus.testing._properties import reveal
from altostratus.testing.runner.fronts import Calls, serving
from altostratus.testing.runner.ledger import Ledger
from altostratus.testing.runner.state import ResourceState, Snapshot, runs
from altostratus.testing.runner.steps import (
    PARALLEL,
    Canceled,
    ResourceFailed,
    Steps,
    antichains,
    in_parallel,
)


class DeleteProtected(ResourceFailed):
    """``deleteProtectedError``: a protected resource was to be deleted. Not a reason to stop
    the other steps."""

    cancels = False

    def __init__(self, urn: str) -> None:
        super().__init__(
            urn,
            "delete",
            f'resource "{urn}" cannot be deleted because it is protected. To unprotect the '
            "resource, either remove the `protect` flag from the resource in your Pulumi program "
            f"and run `pulumi up`, or use the command: `pulumi state unprotect '{urn}'`",
        )


def delete_one(
    process: Calls,
    steps: Steps,
    res: ResourceState,
    *,
    op: str,
    deleting: Collection[str],
    replacing: bool = False,
) -> None:
    """``DeleteStep.Apply`` for ``res``; ``deleting`` holds every URN this operation deletes."""
    if not replacing and res.protect:
        with steps.step(op, res.urn, res.type):
            raise DeleteProtected(res.urn)
    if res.external and not replacing:
        # ``DeleteStep.Op``: a resource read with ``get`` is discarded, no provider call.
        with steps.step("discard", res.urn, res.type):
            return
    if steps.preview or res.external or res.retain_on_delete or res.pending_replacement:
        return
    if res.deleted_with and res.deleted_with in deleting:
        return  # deleted with the other resource, by the service
    if not res.custom or not runs(res.type):
        return  # a component, or another provider's resource: nothing runs
    with steps.step(op, res.urn, res.type):
        serving(process, res).delete(res.urn, res.id, reveal(res.outputs))


@dataclass
class Deleted:
    """What a run of deletes did: the resources deleted, those left, and the failures."""

    deleted: list[ResourceState] = field(default_factory=list)
    left: list[ResourceState] = field(default_factory=list)
    failures: list[ResourceFailed] = field(default_factory=list)


def delete_in_order(
    condemned: Sequence[ResourceState],
    delete: Callable[[ResourceState], None],
    workers: int = PARALLEL,
) -> Deleted:
    """Run ``delete`` over ``condemned``, dependents first, each antichain in parallel.

    After a failure no later antichain starts (what is left stays in the state), except after
    a protected resource's refusal, which stops nothing.
    """
    outcome = Deleted()
    batches = antichains(condemned)
    for index, batch in enumerate(batches):
        stopped = False
        for res, result in zip(batch, in_parallel(delete, batch, workers), strict=True):
            if isinstance(result, Canceled):
                outcome.left.append(res)  # not deleted: an earlier step failed
            elif isinstance(result, BaseException):
                failure = result if isinstance(result, ResourceFailed) else None
                failure = failure or ResourceFailed(res.urn, "delete", str(result), cause=result)
                outcome.failures.append(failure)
                outcome.left.append(res)
                stopped = stopped or not isinstance(failure, DeleteProtected)
            else:
                outcome.deleted.append(res)
        if stopped:
            outcome.left += [res for later in batches[index + 1 :] for res in later]
            break
    return outcome


def finish(ledger: Ledger, *, failed: bool = False) -> Snapshot:
    """The end of a deployment: delete what was replaced or is no longer declared, dependents
    first; the new state.

    ``GenerateDeletes``: old resources pending deletion, replaced ones, and those the
    program no longer registers; ``ScheduleDeletes`` orders them. After a failure the
    engine deletes nothing and keeps every old resource not yet superseded in the state
    (the replaced ones marked for deletion, those a delete-before-replace deleted marked
    pending replacement), so the next ``up`` finishes the job. A preview only announces the
    deletes, and refuses those of protected resources as an update would. ``failed`` tells
    that the program itself failed.

    The new state lists the resources this deployment registered, then the old ones it
    keeps (``SnapshotManager.Snap`` in ``pkg/backend/snapshot.go``).

    A failed program leaves steps running (a create it no longer waits for): as the engine's
    step executor does, ``finish`` waits for them and keeps what they made in the state.
    """
    settled = ledger.settle()
    old = ledger.old.resources
    condemned = [res for res in old if res.delete or any(res is o for o in settled.unclaimed)]
    deleting = {res.urn for res in condemned} | settled.deleted
    if ledger.failures or failed:
        superseded = [*settled.unclaimed, *settled.unfinished]
        kept = [res for res in old if res.delete or any(res is o for o in superseded)]
        return Snapshot(settled.news + kept, dict(ledger.config))

    def delete(res: ResourceState) -> None:
        op = "delete-replaced" if res.delete else "delete"
        delete_one(
            ledger.process, ledger.steps, res, op=op, deleting=deleting, replacing=res.delete
        )

    outcome = delete_in_order(
        [res for res in condemned if not ledger.preview or not res.delete],
        delete,
        ledger.steps.parallel,
    )
    for failure in outcome.failures:
        ledger.report(failure)
    for res in outcome.deleted:
        if not res.delete:
            ledger.note_deleted(res)
    if ledger.preview:
        return ledger.old
    kept = [res for res in old if any(res is o for o in outcome.left)]
    return Snapshot(settled.news + kept, dict(ledger.config))
