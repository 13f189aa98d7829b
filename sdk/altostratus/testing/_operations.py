"""``pulumi refresh`` and ``pulumi destroy``: operations over the whole state, without the program.

Both configure the provider from the configuration stored in the state (the provider's inputs),
not from the stack's current configuration: the engine loads each provider from the old snapshot
(``pkg/resource/deploy/providers/registry.go``), so a key or URL changed since the last ``up`` is
not used until the next ``up``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from altostratus.testing._process import ProviderProcess
from altostratus.testing._properties import annotate_secrets, mark_secret_outputs, reveal
from altostratus.testing._state import ResourceState, Snapshot, is_dynamic
from altostratus.testing._steps import (
    Canceled,
    EventSink,
    ResourceFailed,
    Steps,
    antichains,
    in_parallel,
)


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
    return res.custom and is_dynamic(res.type) and not res.pending_replacement


def refresh_one(process: ProviderProcess, steps: Steps, res: ResourceState) -> ResourceState | None:
    """``RefreshStep.Apply`` (step.go): read the live resource; None when it is gone.

    The provider's answer is marked secret where the old state was (``annotateSecrets`` in
    ``provider_plugin.go``'s ``Read``), inputs it sends replace the old ones and none keeps them,
    and the additional secret outputs are marked again (``continueExecuteStep``).
    """
    with steps.step("refresh", res.urn, res.type):
        id_, outs, inputs = process.read(res.urn, res.id, reveal(res.outputs), reveal(res.inputs))
    if not id_:
        return None
    new_inputs = res.inputs if inputs is None else annotate_secrets(inputs, res.inputs)
    outputs = annotate_secrets(outs, res.outputs)
    outputs = mark_secret_outputs(outputs, new_inputs, res.additional_secret_outputs)
    return ResourceState(
        urn=res.urn,
        type=res.type,
        id=id_,
        inputs=new_inputs,
        outputs=outputs,
        custom=res.custom,
        external=res.external,
        parent=res.parent,
        dependencies=list(res.dependencies),
        property_dependencies=dict(res.property_dependencies),
        additional_secret_outputs=list(res.additional_secret_outputs),
        delete=res.delete,
        pending_replacement=res.pending_replacement,
    )


def refresh(
    snapshot: Snapshot, process: ProviderProcess, *, on_event: EventSink | None = None
) -> Outcome:
    """Every resource read at once (``GenerateRefreshes`` makes one independent step each)."""
    steps = Steps(on_event, preview=False)
    targets = [res for res in snapshot.resources if _managed(res)]
    results = in_parallel(lambda res: refresh_one(process, steps, res), targets)
    refreshed = {id(res): result for res, result in zip(targets, results, strict=True)}
    outcome = Outcome(Snapshot([], dict(snapshot.provider_config)))
    for res in snapshot.resources:
        result = refreshed.get(id(res), res)
        if isinstance(result, Canceled):
            outcome.snapshot.resources.append(res)  # not read: an earlier step failed
        elif isinstance(result, ResourceFailed):
            outcome.failures.append(result)
            outcome.snapshot.resources.append(res)
        elif isinstance(result, BaseException):
            outcome.failures.append(ResourceFailed(res.urn, "refresh", str(result), cause=result))
            outcome.snapshot.resources.append(res)
        elif result is None:
            outcome.operations[res.urn] = "delete"
        else:
            changed = reveal(result.outputs) != reveal(res.outputs)
            outcome.operations[res.urn] = "update" if changed else "same"
            outcome.snapshot.resources.append(result)
    return outcome


def destroy(
    snapshot: Snapshot, process: ProviderProcess, *, on_event: EventSink | None = None
) -> Outcome:
    """Every resource deleted, dependents first, each antichain in parallel.

    Resources read with ``get`` are external: only forgotten (``DeleteStep.Apply``). After a
    failed delete the engine stops; what is left stays in the state.
    """
    steps = Steps(on_event, preview=False)
    outcome = Outcome(Snapshot([], dict(snapshot.provider_config)))
    left: list[ResourceState] = []

    def delete(res: ResourceState) -> None:
        if _managed(res) and not res.external:
            with steps.step("delete", res.urn, res.type):
                process.delete(res.urn, res.id, reveal(res.outputs))

    batches = antichains(snapshot.resources)
    for index, batch in enumerate(batches):
        for res, result in zip(batch, in_parallel(delete, batch), strict=True):
            if isinstance(result, Canceled):
                left.append(res)  # not deleted: an earlier step failed
            elif isinstance(result, BaseException):
                failure = result if isinstance(result, ResourceFailed) else None
                outcome.failures.append(
                    failure or ResourceFailed(res.urn, "delete", str(result), cause=result)
                )
                left.append(res)
            else:
                outcome.operations[res.urn] = "delete"
        if outcome.failures:
            left += [res for later in batches[index + 1 :] for res in later]
            break
    outcome.snapshot.resources = [r for r in snapshot.resources if any(r is o for o in left)]
    if not outcome.snapshot.resources:
        outcome.snapshot.provider_config = {}
    return outcome
