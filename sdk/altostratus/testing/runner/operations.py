"""``pulumi refresh`` and ``pulumi destroy``: operations over the whole state, without the program.

Both configure the provider from the configuration stored in the state (the provider's inputs),
not from the stack's current configuration: the engine loads each provider from the old snapshot
(``pkg/resource/deploy/providers/registry.go``), so a key or URL changed since the last ``up`` is
not used until the next ``up``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from altostratus.testing._properties import annotate_secrets, mark_secret_outputs, reveal
from altostratus.testing._results import EventSink
from altostratus.testing.runner.deletes import delete_in_order, delete_one
from altostratus.testing.runner.fronts import Calls
from altostratus.testing.runner.paths import ignore_changes
from altostratus.testing.runner.process import DiffAnswer
from altostratus.testing.runner.state import ResourceState, Snapshot, runs
from altostratus.testing.runner.steps import Canceled, ResourceFailed, Steps, in_parallel


@dataclass
class Outcome:
    """What an operation over the state did: the new state, each resource's operation, failures."""

    snapshot: Snapshot
    operations: dict[str, str] = field(default_factory=dict)
    failures: list[ResourceFailed] = field(default_factory=list)


def _managed(res: ResourceState) -> bool:
    """A resource a provider call can reach: a custom dynamic one not already deleted (one
    pending replacement is neither read nor deleted: ``RefreshStep.Apply``,
    ``GenerateDeletes``)."""
    return res.custom and runs(res.type) and not res.pending_replacement


def refresh_one(process: Calls, steps: Steps, res: ResourceState) -> ResourceState | None:
    """``RefreshStep.Apply`` (step.go): read the live resource; None when it is gone."""
    return refresh_step(process, steps, res)[0]


def refresh_step(
    process: Calls, steps: Steps, res: ResourceState
) -> tuple[ResourceState | None, str]:
    """``RefreshStep.Apply`` (step.go): the live resource (None when it is gone), and the
    operation the engine reports for it (``RefreshStep.ResultOp``).

    The provider's answer is marked secret where the old state was (``annotateSecrets`` in
    ``provider_plugin.go``'s ``Read``), inputs it sends replace the old ones and none keeps them,
    and the additional secret outputs are marked again (``continueExecuteStep``).

    The operation comes from the diff an ``up`` of the unchanged program would see right after
    the refresh: the provider's ``Diff`` of the refreshed state against the old inputs, which
    reports drift only in what the program sets. A resource read with ``get`` (external) is
    compared by its outputs instead.
    """
    with steps.step("refresh", res.urn, res.type):
        id_, outs, inputs = process.read(res.urn, res.id, reveal(res.outputs), reveal(res.inputs))
        if not id_:
            return None, "delete"
        new_inputs = res.inputs if inputs is None else annotate_secrets(inputs, res.inputs)
        outputs = annotate_secrets(outs, res.outputs)
        outputs = mark_secret_outputs(outputs, new_inputs, res.additional_secret_outputs)
        new = dataclasses.replace(res, id=id_, inputs=new_inputs, outputs=outputs)
        if res.external:
            changed = reveal(new.outputs) != reveal(res.outputs)
        else:
            changed = _drifted(process, res, new)
    return new, "update" if changed else "same"


def _drifted(process: Calls, old: ResourceState, new: ResourceState) -> bool:
    """``diffResource`` with the refreshed inputs and outputs as the olds and the old inputs
    as the news; "changes unknown" compares the inputs, the ignored changes undone."""
    diff = process.diff(
        old.urn, new.id, reveal(new.outputs), reveal(old.inputs), reveal(new.inputs)
    )
    if diff.changes != DiffAnswer.DIFF_UNKNOWN:
        return diff.some
    news = ignore_changes(old.inputs, new.inputs, old.ignore_changes)
    return bool(reveal(new.inputs) != reveal(news))


def refresh(
    snapshot: Snapshot,
    process: Calls,
    *,
    on_event: EventSink | None = None,
    parallel: int | None = None,
) -> Outcome:
    """Every resource read at once (``GenerateRefreshes`` makes one independent step each).

    A component, or a resource a delete-before-replace already deleted, is not read and stays
    the same."""
    steps = Steps(on_event, preview=False, parallel=parallel)
    targets = [res for res in snapshot.resources if _managed(res)]
    results = in_parallel(lambda res: refresh_step(process, steps, res), targets, steps.parallel)
    refreshed = {id(res): result for res, result in zip(targets, results, strict=True)}
    outcome = Outcome(Snapshot([], dict(snapshot.provider_config)))
    for res in snapshot.resources:
        result = refreshed.get(id(res), (res, "same"))
        if isinstance(result, Canceled):
            outcome.snapshot.resources.append(res)  # not read: an earlier step failed
        elif isinstance(result, ResourceFailed):
            outcome.failures.append(result)
            outcome.snapshot.resources.append(res)
        elif isinstance(result, BaseException):
            outcome.failures.append(ResourceFailed(res.urn, "refresh", str(result), cause=result))
            outcome.snapshot.resources.append(res)
        else:
            new, op = result
            outcome.operations[res.urn] = op
            if new is not None:
                outcome.snapshot.resources.append(new)
    return outcome


def destroy(
    snapshot: Snapshot,
    process: Calls,
    *,
    on_event: EventSink | None = None,
    parallel: int | None = None,
) -> Outcome:
    """Every resource deleted, dependents first, each antichain in parallel.

    The delete steps are the engine's (``deletes.delete_one``): a protected resource is
    refused and stays, one read with ``get``, retained, or deleted with another resource of the
    stack is only forgotten. After a failed delete the engine stops; what is left stays in the
    state.
    """
    steps = Steps(on_event, preview=False, parallel=parallel)
    deleting = {res.urn for res in snapshot.resources}
    done = delete_in_order(
        snapshot.resources,
        lambda res: delete_one(process, steps, res, op="delete", deleting=deleting),
        steps.parallel,
    )
    outcome = Outcome(Snapshot([], dict(snapshot.provider_config)), failures=done.failures)
    outcome.operations = {res.urn: "discard" if res.external else "delete" for res in done.deleted}
    outcome.snapshot.resources = [r for r in snapshot.resources if any(r is o for o in done.left)]
    if not outcome.snapshot.resources:
        outcome.snapshot.provider_config = {}
    return outcome
