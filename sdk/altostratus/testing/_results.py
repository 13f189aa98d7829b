"""What a stack operation returns to the test: outputs, each resource's operation, failures."""

from __future__ import annotations

import builtins
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from altostratus.testing._process import CheckFailure
from altostratus.testing._program import OutputValue
from altostratus.testing._properties import is_secret, reveal
from altostratus.testing._state import ResourceState, Snapshot, urn_type
from altostratus.testing._steps import ResourceFailed

PROVIDER_KEY = "__provider"
NAME_PREFIX = "__name_prefix"
READ_GIVEN = "__read"
STEP_OPERATIONS = {
    **{op: op for op in ("create", "update", "delete", "replace", "read", "import", "discard")},
    "create-replacement": "replace",
    "delete-replaced": "replace",
    "refresh": "refresh",
}
"""The steps the engine starts (and reports) before the provider answers, by the operation a
``Result`` names for them: a failed step still names its resource."""


def resource_key(urn: str) -> str:
    """``<Type>:<name>``, the short name results are keyed by (``Network:app``)."""
    return f"{urn_type(urn).rpartition(':')[2]}:{urn.rsplit('::', 1)[-1]}"


def resource_keys(urns: Iterable[str]) -> dict[str, str]:
    """Each URN's key in a result: ``<Type>:<name>``, or, where two URNs share that (a resource
    moved under a parent without an alias is deleted under one URN and created under another),
    ``<Parent>$<Type>:<name>`` with the short types of its whole qualified type."""
    urns = list(dict.fromkeys(urns))
    short = {urn: resource_key(urn) for urn in urns}
    taken = Counter(short.values())
    keys: dict[str, str] = {}
    for urn in urns:
        key = short[urn]
        if taken[key] > 1:
            qualified = urn.split("::")[2].split("$")
            key = (
                "$".join(part.rpartition(":")[2] for part in qualified) + ":" + key.split(":", 1)[1]
            )
        keys[urn] = key if key not in keys.values() else urn
    return keys


@dataclass(frozen=True)
class ResourceResult:
    """One resource after an operation: what happened to it and its values.

    ``inputs`` and ``outputs`` are plain values (the provider's own ``__provider`` and
    ``__name_prefix`` left out); ``secret_outputs`` names the outputs the state keeps secret.
    """

    urn: str
    type: str
    op: str
    id: str
    inputs: dict[str, Any]
    outputs: dict[str, Any]
    secret_outputs: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return self.urn.rsplit("::", 1)[-1]

    @classmethod
    def of(cls, op: str, state: ResourceState | None, urn: str, type_: str) -> ResourceResult:
        if state is None:
            return cls(urn, type_, op, "", {}, {})
        hidden = (PROVIDER_KEY, NAME_PREFIX, READ_GIVEN)
        return cls(
            urn=urn,
            type=type_,
            op=op,
            id=state.id,
            inputs={k: reveal(v) for k, v in state.inputs.items() if k not in hidden},
            outputs={k: reveal(v) for k, v in state.outputs.items() if k not in hidden},
            secret_outputs=frozenset(
                k for k, v in state.outputs.items() if is_secret(v) and k not in hidden
            ),
        )


@dataclass(frozen=True)
class CheckFailureResult:
    """A property a resource's provider refused, and why."""

    resource: str
    property: str
    reason: str


@dataclass(frozen=True)
class Failure:
    """One failure of an operation, as the engine reports it for one resource or the program.

    ``op`` says what failed: ``check`` (``property`` names the input refused, ``""`` the
    resource as a whole; ``message`` is the reason), a step (``create``, ``update``,
    ``delete``, ``read``, ``refresh``, ``import``, ...), ``register`` (the registration itself
    was refused: a duplicate URN, an option the runner does not apply) or ``program`` (the
    program raised; ``urn`` is the stack's). ``reference`` is the stack a ``StackReference``
    named when the test gave no outputs for it. ``str()`` is the one line of ``failures``.
    """

    urn: str
    type: str
    op: str
    message: str
    property: str | None = None
    reference: str = ""

    @builtins.property  # (the field ``property`` hides the builtin here)
    def name(self) -> str:
        return self.urn.rsplit("::", 1)[-1]

    @builtins.property
    def kind(self) -> str:
        """The type's last part (``Network``), as result keys name it."""
        return self.type.rpartition(":")[2]

    def __str__(self) -> str:
        if self.op == "check":
            return f"{self.urn}: check failed: {self.property}: {self.message}"
        return f"{self.urn}: {self.op} failed: {self.message}"

    @classmethod
    def of(cls, failed: ResourceFailed) -> list[Failure]:
        """The failures a runner's ``ResourceFailed`` reports: one per refused property."""
        type_ = urn_type(failed.urn) if failed.urn.count("::") >= 3 else ""
        if failed.failures:
            return [cls(failed.urn, type_, "check", f.reason, f.property) for f in failed.failures]
        return [cls(failed.urn, type_, failed.op, failed.message, reference=failed.reference)]


@dataclass
class Result:
    """The answer of ``preview``, ``up``, ``refresh`` or ``destroy``.

    ``resources`` is keyed by ``<Type>:<name>``; each resource's ``op`` is ``create``, ``same``,
    ``update``, ``replace``, ``delete``, ``read``, ``discard`` (a resource read with ``get``
    forgotten, not deleted) or ``refresh`` (a failed refresh step). ``outputs`` are the stack's
    outputs (``up`` and ``preview`` only; a preview gives None for values not known yet).
    ``failures`` has one line per failure, ``errors`` the same failures as ``Failure`` records,
    and ``check_failures`` the properties refused.
    """

    command: str
    outputs: dict[str, OutputValue] = field(default_factory=dict)
    resources: dict[str, ResourceResult] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    check_failures: list[CheckFailureResult] = field(default_factory=list)
    errors: list[Failure] = field(default_factory=list)

    @property
    def operations(self) -> dict[str, str]:
        return {key: res.op for key, res in self.resources.items()}

    def changed(self) -> dict[str, str]:
        """The operations other than ``same`` and ``read``."""
        return {k: op for k, op in self.operations.items() if op not in ("same", "read")}

    @property
    def expect_no_changes(self) -> bool:
        """Whether ``--expect-no-changes`` would let this operation pass: no resource had an
        operation other than ``same`` or ``read`` (``engine.HasChanges`` in
        ``pkg/engine/update.go``; a refresh counts each resource's ``RefreshStep.ResultOp``)."""
        return not self.changed()

    def output_values(self) -> dict[str, Any]:
        """The outputs' plain values."""
        return {name: output.value for name, output in self.outputs.items()}

    @classmethod
    def build(
        cls,
        command: str,
        operations: Mapping[str, str],
        before: Snapshot,
        after: Snapshot,
        failures: list[ResourceFailed],
        outputs: dict[str, OutputValue] | None = None,
    ) -> Result:
        result = cls(command, dict(outputs or {}))
        # A step that started and failed is reported with its operation, as the engine's
        # events report it (a ``ResourcePreEvent``, then a ``ResOpFailedEvent``).
        operations = dict(operations)
        for failed in failures:
            shown = STEP_OPERATIONS.get(failed.op)
            if shown and failed.started and failed.urn not in operations:
                operations[failed.urn] = shown
        latest = {res.urn: res for res in before.resources if not res.delete}
        latest.update({res.urn: res for res in after.resources if not res.delete})
        keys = resource_keys(operations)
        for urn, op in operations.items():
            state = latest.get(urn)
            type_ = state.type if state else urn_type(urn)
            result.resources[keys[urn]] = ResourceResult.of(op, state, urn, type_)
        for failed in failures:
            result.failures.append(str(failed))
            result.errors += Failure.of(failed)
            for failure in failed.failures:
                result.check_failures.append(
                    CheckFailureResult(resource_key(failed.urn), failure.property, failure.reason)
                )
        return result


class DeploymentFailed(Exception):
    """The operation failed as the engine's would: ``result`` holds what was done and why not.

    The message lists every failed resource on its own line.
    """

    def __init__(self, result: Result) -> None:
        lines = "\n".join(f"  {line}" for line in result.failures)
        super().__init__(f"{result.command} failed:\n{lines}")
        self.result = result

    @property
    def check_failures(self) -> list[CheckFailureResult]:
        return self.result.check_failures

    @property
    def errors(self) -> list[Failure]:
        """Each failure as a ``Failure`` record (``result.errors``)."""
        return self.result.errors


__all__ = [
    "CheckFailure",
    "CheckFailureResult",
    "DeploymentFailed",
    "Failure",
    "ResourceResult",
    "Result",
    "resource_key",
    "resource_keys",
]
