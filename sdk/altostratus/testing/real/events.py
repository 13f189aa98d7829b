"""What the real engine reports, read into the runner's terms: steps, check failures, state.

The Automation API streams engine events (``pulumi.automation.events``) and exports the state as
``pulumi stack export --show-secrets`` prints it; ``EngineEvents`` turns the first into
``StepEvent`` progress, operations and ``CheckFailureResult``, and ``exported_resource`` the
second into ``ResourceResult``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from typing import Any

from altostratus._pulumi_format import SECRET_SIGNATURE
from altostratus.testing._results import (
    HIDDEN,
    STACK_TYPE,
    CheckFailureResult,
    EventSink,
    Failure,
    ResourceResult,
    StepEvent,
    front_of,
    resource_key,
    urn_type,
)

# ``GetResourcePropertyInvalidValueError`` and ``GetResourceInvalidError`` (sdk/go/common/diag/
# errors.go): "%v resource '%v': property %v value %v has a problem: %v" (v3.260; older:
# "%v resource '%v's property '%v' value %v has a problem: %v"), "%v resource '%v' has a problem".
_PROPERTY_FAILURE = re.compile(
    r"(?:'s property '([^']*)'|': property (\S+)) value .*? has a problem: (.*)$", re.DOTALL
)
_RESOURCE_FAILURE = re.compile(r"resource '[^']*' has a problem: (.*)$", re.DOTALL)
_COLOR = re.compile(r"<\{%[^%]*%\}>")

# The engine's step kinds (``pkg/resource/deploy/step.go``'s ``StepOp``) as ``Result`` names them.
_SHOWN = {
    "create-replacement": "replace",
    "delete-replaced": "replace",
    "discard-replaced": "replace",
    "replace": "replace",
    "read-replacement": "read",
}
_STATUS = {
    "resource_pre_event": "started",
    "res_outputs_event": "done",
    "res_op_failed_event": "failed",
}

REFERENCE_TYPE = "pulumi:pulumi:StackReference"


def is_engine_own(type_: str) -> bool:
    """The stack, provider and stack reference resources, which the runner's results leave out."""
    return type_ in (STACK_TYPE, REFERENCE_TYPE) or type_.startswith("pulumi:providers:")


def check_failure(message: str) -> tuple[str, str] | None:
    """The property (or "") and the reason in the engine's message for a check failure."""
    plain = _COLOR.sub("", message).strip()
    found = _PROPERTY_FAILURE.search(plain)
    if found:
        return found[1] or found[2], found[3].strip()
    found = _RESOURCE_FAILURE.search(plain)
    return ("", found[1].strip()) if found else None


class EngineEvents:
    """A sink for the Automation API's ``on_event``: each resource's operation, in order.

    ``operations`` maps each URN to its type and operation (the last step it went through;
    a replacement's steps all read ``replace``; a refresh's, the operation the engine reports
    for it, ``RefreshStep.ResultOp``); ``check_failures`` holds the check failures the engine
    reported and ``errors`` those and each failed step; ``on_event`` receives a ``StepEvent``
    as each step starts and ends.
    """

    def __init__(self, on_event: EventSink | None, *, preview: bool) -> None:
        self.on_event = on_event
        self.preview = preview
        self.operations: dict[str, tuple[str, str]] = {}
        self.check_failures: list[CheckFailureResult] = []
        self.errors: list[Failure] = []
        self._started: dict[tuple[str, str], float] = {}
        self._diagnosed: dict[str, str] = {}  # the last error the engine reported per URN
        self._types: dict[str, str] = {}

    def __call__(self, event: Any) -> None:
        diag = event.diagnostic_event
        if diag is not None and diag.severity == "error":
            found = check_failure(diag.message)
            if found and diag.urn:
                self.check_failures.append(CheckFailureResult(resource_key(diag.urn), *found))
                prop, reason = found
                self.errors.append(Failure(diag.urn, urn_type(diag.urn), "check", reason, prop))
            elif diag.urn:
                self._diagnosed[diag.urn] = _COLOR.sub("", diag.message).strip()
            return
        if diag is not None and diag.ephemeral and diag.urn:
            self._progress(diag.urn, _COLOR.sub("", diag.message).strip())
            return
        for name, status in _STATUS.items():
            step = getattr(event, name, None)
            if step is not None:
                self._step(step.metadata, status)

    def _progress(self, urn: str, message: str) -> None:
        """A provider's ephemeral line (a wait, a retry) during a step of ``urn``."""
        running = [(op, at) for (at_urn, op), at in self._started.items() if at_urn == urn]
        type_ = self._types.get(urn)
        if self.on_event is None or not running or type_ is None:
            return
        op, started = running[-1]
        elapsed = time.monotonic() - started
        event = StepEvent(op, urn, type_, "progress", elapsed, None, self.preview, message)
        self.on_event(event)

    def _step(self, meta: Any, status: str) -> None:
        op = str(getattr(meta.op, "value", meta.op))
        if is_engine_own(meta.type):
            return
        key = (meta.urn, op)
        now = time.monotonic()
        if status == "started":
            self._started[key] = now
            self._types[meta.urn] = meta.type
        elapsed = now - self._started.get(key, now)
        if status == "failed":
            # ``stepExecutor`` reports the step's error as a diagnostic before the event.
            message = self._diagnosed.get(meta.urn, "failed")
            self.errors.append(Failure(meta.urn, meta.type, op, message))
        if op != "refresh" or status == "failed":
            # A refresh's operation is its result (``refresh_operations``), unless it failed.
            self.operations[meta.urn] = (meta.type, _SHOWN.get(op, op))
        if self.on_event is not None:
            self.on_event(StepEvent(op, meta.urn, meta.type, status, elapsed, preview=self.preview))


def revealed(value: Any) -> tuple[Any, bool]:
    """An exported value with its secrets decoded, and whether it held any."""
    if isinstance(value, dict):
        if SECRET_SIGNATURE in value:
            inner = json.loads(value["plaintext"]) if "plaintext" in value else None
            return revealed(inner)[0], True
        pairs = {k: revealed(v) for k, v in value.items()}
        return {k: v for k, (v, _) in pairs.items()}, any(s for _, s in pairs.values())
    if isinstance(value, list):
        items = [revealed(v) for v in value]
        return [v for v, _ in items], any(s for _, s in items)
    return value, False


def exported_resource(res: Mapping[str, Any], op: str = "") -> ResourceResult:
    """A resource of ``pulumi stack export --show-secrets`` as a ``ResourceResult``."""
    inputs = {k: revealed(v)[0] for k, v in (res.get("inputs") or {}).items() if k not in HIDDEN}
    outputs: dict[str, Any] = {}
    secrets: set[str] = set()
    for key, value in (res.get("outputs") or {}).items():
        if key in HIDDEN:
            continue
        outputs[key], is_secret = revealed(value)
        if is_secret:
            secrets.add(key)
    return ResourceResult(
        str(res["urn"]),
        str(res["type"]),
        op,
        str(res.get("id", "")),
        inputs,
        outputs,
        frozenset(secrets),
        front=front_of(str(res["type"])),
    )


def refresh_operations(
    before: Mapping[str, ResourceResult], after: Mapping[str, ResourceResult]
) -> dict[str, ResourceResult]:
    """What a refresh did to each resource, told by its state before and after (``same``,
    ``update`` when its outputs changed, ``delete``): for a resource the engine's events did not
    report."""
    found: dict[str, ResourceResult] = {}
    for urn, old in before.items():
        new = after.get(urn)
        if new is None:
            found[urn] = ResourceResult(urn, old.type, "delete", old.id, old.inputs, old.outputs)
        else:
            op = "same" if new.outputs == old.outputs else "update"
            found[urn] = ResourceResult(
                urn, new.type, op, new.id, new.inputs, new.outputs, new.secret_outputs
            )
    return found
