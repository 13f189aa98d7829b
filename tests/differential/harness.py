"""One scenario through both engines, and what a user would see differ between them.

For each step the outcome holds what ``pulumi`` reports and leaves: the operation per resource,
whether the step failed, whether each resource kept its id from the step before, the stack
outputs (values with ids masked, and their secretness), and what the service holds afterwards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Result, Stack

from .programs import Scenario

ENGINES = ("runner", "pulumi")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# An auto-name's random suffix (``<name>-<7 characters>``) and a network's generated name.
_SUFFIX = re.compile(r"^(.+)-[a-z0-9]{7}$")
_GENERATED = re.compile(r"^cust-[0-9a-f]{8}-[0-9a-f]{8}$")


@dataclass
class Outcome:
    command: str
    failed: bool
    operations: dict[str, str]
    ids: dict[str, str]
    outputs: dict[str, Any]
    held: dict[str, list[str]]
    kept: dict[str, bool] = field(default_factory=dict)

    def compared(self) -> dict[str, Any]:
        """What is compared between engines: everything but the ids themselves."""
        return {
            "failed": self.failed,
            "operations": self.operations,
            "kept ids": self.kept,
            "outputs": self.outputs,
            "service holds": self.held,
        }


def _mask(value: Any) -> Any:
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
            "value": _mask(output.value),
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
            failed = False
            try:
                result = getattr(stack, step.command)()
            except DeploymentFailed as error:
                result, failed = error.result, True
            outcome = _outcome(step.command, result, failed, emulator)
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
