"""What a stack operation tells the test, whichever engine runs it: a ``StepEvent`` as each step
starts and ends, then a ``Result`` (the stack's outputs as ``OutputValue``, each resource's
operation and values as ``ResourceResult``, each failure as ``Failure``) or ``DeploymentFailed``.

Both engines speak it: the runner (``runner/report.py``) and the real engine's adapter
(``real/events.py``) each turn what they did into these records.
"""

from __future__ import annotations

import builtins
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

STACK_TYPE = "pulumi:pulumi:Stack"

HIDDEN = ("__provider", "__name_prefix", "__read")
"""The dynamic provider's own keys (the pickled provider, the auto-name prefix, the read
marker), left out of a ``ResourceResult``'s inputs and outputs."""

RESOURCE_MARK = "@isPulumiResource"
"""Added by ``massage`` to an exported resource during a preview, for the engine's display."""


SECRET_SHOWN = "[secret]"
"""What ``pulumi stack output`` prints in place of a secret (without ``--show-secrets``)."""

OutputPath = tuple[str | int, ...]
"""Where a value sits inside an output: object keys and list indexes."""


@dataclass(frozen=True)
class OutputValue:
    """A stack output and whether it is a secret (as ``pulumi.automation.OutputValue``).

    ``value`` is plain; ``secret`` says the whole output is secret, ``secret_paths`` where
    secrets sit inside an output that is not (a dict or list holding a secret resource output),
    as the engine's state marks them. ``shown`` is the value as ``pulumi stack output --json``
    prints it, ``"[secret]"`` in each of those places; ``holds_secret`` whether any is there."""

    value: Any
    secret: bool = False
    secret_paths: tuple[OutputPath, ...] = ()

    @property
    def holds_secret(self) -> bool:
        return self.secret or bool(self.secret_paths)

    @property
    def shown(self) -> Any:
        if self.secret:
            return SECRET_SHOWN
        shown = self.value
        for path in self.secret_paths:
            shown = _masked(shown, path)
        return shown


def _masked(value: Any, path: OutputPath) -> Any:
    """``value`` (not changed) with ``"[secret]"`` at ``path``."""
    if not path:
        return SECRET_SHOWN
    head, rest = path[0], path[1:]
    if isinstance(value, dict) and head in value:
        return {**value, head: _masked(value[head], rest)}
    if isinstance(value, list) and isinstance(head, int) and 0 <= head < len(value):
        return [_masked(item, rest) if i == head else item for i, item in enumerate(value)]
    return value


def secret_paths(
    value: Any, marked: Callable[[Any], bool], path: OutputPath = ()
) -> list[OutputPath]:
    """The paths of the values ``marked`` secret inside ``value`` (not its own mark)."""
    found: list[OutputPath] = []
    items: list[tuple[str | int, Any]] = []
    if isinstance(value, dict):
        items = [(k, v) for k, v in value.items() if k != RESOURCE_MARK]
    elif isinstance(value, list):
        items = list(enumerate(value))
    for key, item in items:
        if marked(item):
            found.append((*path, key))
        else:
            found += secret_paths(item, marked, (*path, key))
    return sorted(found, key=str)


DYNAMIC_PREFIX = "pulumi-python:dynamic"
PLUGIN_PREFIX = "altostratus:index:"
"""The types of the resources the provider plugin serves (``altostratus.plugin``)."""
DYNAMIC = "dynamic"
PLUGIN = "plugin"


def is_dynamic(type_: str) -> bool:
    return type_.startswith(DYNAMIC_PREFIX)


def front_of(type_: str) -> str:
    """The front end a resource type goes through: ``dynamic`` (``altostratus``'s classes),
    ``plugin`` (the provider plugin's ``altostratus:index:<Name>``), or ``""`` for a type whose
    provider the runner does not run (another provider's, a component, a provider resource)."""
    if is_dynamic(type_):
        return DYNAMIC
    if type_.startswith(PLUGIN_PREFIX):
        return PLUGIN
    return ""


def urn_name(urn: str) -> str:
    return urn.rsplit("::", 1)[-1]


def urn_type(urn: str) -> str:
    return urn.split("::")[2].rsplit("$", 1)[-1]


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
    ``front`` is the front end that ran the resource: ``dynamic`` (``altostratus``'s classes,
    through ``python -m pulumi.dynamic``), ``plugin`` (through the provider plugin), or ``""``
    (a component, a provider resource, another provider's resource).
    """

    urn: str
    type: str
    op: str
    id: str
    inputs: dict[str, Any]
    outputs: dict[str, Any]
    secret_outputs: frozenset[str] = frozenset()
    front: str = ""

    @property
    def name(self) -> str:
        return self.urn.rsplit("::", 1)[-1]


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


@dataclass(frozen=True)
class StepEvent:
    """A step starting or finishing: what a progress display prints.

    ``op`` names the provider call: ``check`` (each altostratus resource declared), ``diff``
    (each one with an old state), ``create``, ``update``, ``create-replacement``,
    ``delete-replaced``, ``delete``, ``read``, ``refresh`` or ``import``. A resource found
    ``same``, a preview's planned change and a resource of another provider make no call: the
    ``Result`` says what happened to them.
    Under the real engine (``engine="pulumi"``) they are the engine's step names instead
    (``same``, ``create``, ``update``, ``replace``, ``create-replacement``, ...). ``status`` is
    ``started``, ``done`` or ``failed`` (with ``error``, the engine's one line), or
    ``progress``: a line the provider said while the step runs (``message``: a wait or a retry,
    ``network 'app': waiting up to 300 s for it to be ready (now 'pending')``), shown on the
    resource's row under ``pulumi up`` too; ``elapsed`` counts seconds since the step started;
    ``preview`` marks the steps of a preview.
    """

    op: str
    urn: str
    type: str
    status: str
    elapsed: float = 0.0
    error: str | None = None
    preview: bool = False
    message: str | None = None

    @property
    def name(self) -> str:
        return urn_name(self.urn)


EventSink = Callable[[StepEvent], None]
"""Receives each ``StepEvent`` (``Stack(on_event=...)``)."""
