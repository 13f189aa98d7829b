"""One scenario through both engines, and what a user would see differ between them.

For each step the outcome holds what ``pulumi`` reports and leaves: the operation per resource,
whether the step failed, whether each resource kept its id from the step before, the stack
outputs (values with ids masked, their secretness and the secrets inside them), the state (each
resource's outputs, nested values and nulls included, and which of them are secret: the
runner's ``Stack.state``, the engine's ``pulumi stack export``) and what the service holds
afterwards.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Result, Stack
from altostratus.testing.real.events import is_engine_own
from altostratus.testing.runner import resource_key, resource_result

from .programs import Scenario

ENGINES = ("runner", "pulumi")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# An auto-name's random suffix (``<name>-<7 characters>``) and a network's generated name.
_SUFFIX = re.compile(r"^(.+)-[a-z0-9]{7}$")
_GENERATED = re.compile(r"^cust-[0-9a-f]{8}-[0-9a-f]{8}$")
_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$")


@dataclass
class Outcome:
    command: str
    failed: bool
    operations: dict[str, str]
    ids: dict[str, str]
    outputs: dict[str, Any]
    held: dict[str, list[str]]
    state: dict[str, list[str]] = field(default_factory=dict)
    kept: dict[str, bool] = field(default_factory=dict)

    def compared(self) -> dict[str, Any]:
        """What is compared between engines: everything but the ids themselves."""
        return {
            "failed": self.failed,
            "operations": self.operations,
            "kept ids": self.kept,
            "outputs": self.outputs,
            "state": self.state,
            "service holds": self.held,
        }


def _mask(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)  # the runner's state holds the wire's floats, an export JSON's ints
    if isinstance(value, str) and _TIME.match(value):
        return "<time>"
    if isinstance(value, str):
        value = _GENERATED.sub("<generated>", _SUFFIX.sub(r"\1-<suffix>", value))
        return _UUID.sub("<id>", value)
    if isinstance(value, dict):
        return {k: _mask(v) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return [_mask(v) for v in value]
    return value


def held(emulator: Emulator) -> dict[str, list[str]]:
    """What the account holds, beyond its default networks: labels or names, by kind."""
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        kinds = {
            "networks": [n.label or "" for n in client.networks.list() if not n.default],
            "firewalls": [f.name or "" for f in client.firewalls.list()],
            "load_balancers": [b.name or "" for b in client.load_balancers.list()],
            "reserved_ips": [r.name or "" for r in client.reserved_ips.list()],
            "object_stores": [s.name or "" for s in client.object_stores.list()],
            "webhooks": [w.url or "" for w in client.webhooks.list()],
        }
    return {kind: sorted(_mask(n) for n in names) for kind, names in kinds.items() if names}


def _outcome(command: str, result: Result, failed: bool, emulator: Emulator) -> Outcome:
    shown = {
        name: {
            "value": _mask(output.shown),
            "secret": output.secret,
            "secrets inside": [list(path) for path in output.secret_paths],
        }
        for name, output in sorted(result.outputs.items())
    }
    return Outcome(
        command=command,
        failed=failed,
        operations=dict(sorted(result.operations.items())),
        ids={key: r.id for key, r in result.resources.items() if r.id},
        outputs=shown,
        held=held(emulator),
    )


def state(stack: Stack) -> dict[str, list[str]]:
    """Each resource of the stack's state: its outputs (masked) and its secret outputs, by key
    (a key's several entries, such as a replaced resource kept for deletion, in order)."""
    if stack.engine == "pulumi":
        assert stack._automation is not None  # the engine's state, as pulumi stack export gives it
        resources = list(stack._automation._exported().values())
    else:
        resources = [
            resource_result("", res, res.urn, res.type)
            for res in stack.state.resources
            if not is_engine_own(res.type)  # as the engine's results, providers left out
        ]
    found: dict[str, list[str]] = {}
    for res in resources:
        outputs = {k: "<secret>" if k in res.secret_outputs else v for k, v in res.outputs.items()}
        entry = {"outputs": _mask(outputs), "secret": sorted(res.secret_outputs)}
        found.setdefault(resource_key(res.urn), []).append(json.dumps(entry, sort_keys=True))
    return {key: sorted(entries) for key, entries in sorted(found.items())}


def run(scenario: Scenario, engine: str, emulator: Emulator) -> list[Outcome]:
    """The scenario's steps on a reset emulator through ``engine``."""
    emulator.reset()
    if scenario.seed is not None:
        emulator.load_state({"accounts": [{"name": "default", **scenario.seed}]})
    outcomes: list[Outcome] = []
    config = {"altostratus:waitTimeoutSeconds": "5", **scenario.config}
    with Stack(scenario.program, emulator=emulator, config=config, engine=engine) as stack:
        ids: dict[str, str] = {}
        for step in scenario.steps:
            for key, value in step.config.items():
                stack.set_config(key, value)
            if step.drift is not None:
                with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
                    step.drift(client)
            if step.fault is not None:
                emulator.add_fault(**step.fault)
            failed = False
            try:
                result = getattr(stack, step.command)()
            except DeploymentFailed as error:
                result, failed = error.result, True
            outcome = _outcome(step.command, result, failed, emulator)
            outcome.state = state(stack)
            emulator.clear_faults()
            outcome.kept = {key: ids.get(key) == id_ for key, id_ in sorted(outcome.ids.items())}
            ids.update(outcome.ids)
            outcomes.append(outcome)
    return outcomes


def differences(runner: list[Outcome], engine: list[Outcome]) -> list[str]:
    """Each step's differing fields, as ``step N (command): field: runner … engine …``."""
    found: list[str] = []
    for number, (ours, theirs) in enumerate(zip(runner, engine, strict=True), start=1):
        a, b = ours.compared(), theirs.compared()
        for name in a:
            if a[name] != b[name]:
                found.append(
                    f"step {number} ({ours.command}): {name}: runner {a[name]} engine {b[name]}"
                )
    return found
