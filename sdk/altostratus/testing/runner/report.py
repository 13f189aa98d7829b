"""What the runner did, as the test's ``Result``: each resource's operation and values from the
states before and after, each failure as the engine reports it.

The real engine's adapter does the same from the engine's events and exported state
(``real/events.py``); both answer in the records of ``_results``.
"""

from __future__ import annotations

from collections.abc import Mapping

from altostratus.testing._properties import is_secret, reveal
from altostratus.testing._results import (
    HIDDEN,
    CheckFailureResult,
    Failure,
    OutputValue,
    ResourceResult,
    Result,
    front_of,
    resource_key,
    resource_keys,
    urn_type,
)
from altostratus.testing.runner.state import ResourceState, Snapshot
from altostratus.testing.runner.steps import ResourceFailed

PROVIDER_PREFIX = "::pulumi:providers:"
"""Where a provider resource's URN names its type."""

STEP_OPERATIONS = {
    **{op: op for op in ("create", "update", "delete", "replace", "read", "import", "discard")},
    "create-replacement": "replace",
    "delete-replaced": "replace",
    "refresh": "refresh",
}
"""The steps the engine starts (and reports) before the provider answers, by the operation a
``Result`` names for them: a failed step still names its resource."""


def resource_result(op: str, state: ResourceState | None, urn: str, type_: str) -> ResourceResult:
    """One resource of the runner's state (None: none is left) after an operation ``op``."""
    front = front_of(type_)
    if state is None:
        return ResourceResult(urn, type_, op, "", {}, {}, front=front)
    return ResourceResult(
        urn=urn,
        type=type_,
        op=op,
        id=state.id,
        inputs={k: reveal(v) for k, v in state.inputs.items() if k not in HIDDEN},
        outputs={k: reveal(v) for k, v in state.outputs.items() if k not in HIDDEN},
        secret_outputs=frozenset(
            k for k, v in state.outputs.items() if is_secret(v) and k not in HIDDEN
        ),
        front=front,
    )


def failures_of(failed: ResourceFailed) -> list[Failure]:
    """The failures a runner's ``ResourceFailed`` reports: one per refused property."""
    type_ = urn_type(failed.urn) if failed.urn.count("::") >= 3 else ""
    if failed.failures:
        return [Failure(failed.urn, type_, "check", f.reason, f.property) for f in failed.failures]
    return [Failure(failed.urn, type_, failed.op, failed.message, reference=failed.reference)]


def result_of(
    command: str,
    operations: Mapping[str, str],
    before: Snapshot,
    after: Snapshot,
    failures: list[ResourceFailed],
    outputs: dict[str, OutputValue] | None = None,
) -> Result:
    """The ``Result`` of ``command``, which took the state from ``before`` to ``after``."""
    result = Result(command, dict(outputs or {}))
    # A step that started and failed is reported with its operation, as the engine's
    # events report it (a ``ResourcePreEvent``, then a ``ResOpFailedEvent``).
    operations = dict(operations)
    for failed in failures:
        shown = STEP_OPERATIONS.get(failed.op)
        if shown and failed.started and failed.urn not in operations:
            operations[failed.urn] = shown
    latest = {res.urn: res for res in before.resources if not res.delete}
    latest.update({res.urn: res for res in after.resources if not res.delete})
    # The provider resources are left out, as the engine's results leave them out.
    operations = {urn: op for urn, op in operations.items() if PROVIDER_PREFIX not in urn}
    keys = resource_keys(operations)
    for urn, op in operations.items():
        state = latest.get(urn)
        type_ = state.type if state else urn_type(urn)
        result.resources[keys[urn]] = resource_result(op, state, urn, type_)
    for failed in failures:
        result.failures.append(str(failed))
        result.errors += failures_of(failed)
        for failure in failed.failures:
            result.check_failures.append(
                CheckFailureResult(resource_key(failed.urn), failure.property, failure.reason)
            )
    return result
