"""``pulumi up`` and ``pulumi destroy`` of a whole example program, without the Pulumi CLI.

The program runs under the SDK's mocks, whose monitor hands every dynamic resource to the real
provider process through ``Engine.apply`` (check, diff, create, update or replace, as the engine
does). State persists between runs of one ``Stack``, so a second ``up`` sees the first one's
resources, and resources the program no longer registers are deleted, newest first.
"""

from __future__ import annotations

import asyncio
import contextvars
import runpy
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pulumi
from engine import Engine, Outcome, State
from pulumi.runtime import rpc
from pulumi.runtime.mocks import MockMonitor

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@dataclass
class UpResult:
    outputs: dict[str, Any]
    operations: dict[str, str] = field(default_factory=dict)
    """``create``, ``same``, ``update``, ``replace`` or ``delete``, by ``<Type>:<name>``."""

    def changed(self) -> dict[str, str]:
        return {name: op for name, op in self.operations.items() if op != "same"}


class _Mocks(pulumi.runtime.Mocks):
    def __init__(self, stack: Stack, references: dict[str, dict[str, Any]]) -> None:
        self.stack = stack
        self.references = references
        self.operations: dict[str, str] = {}
        self.registered: list[str] = []

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        if args.typ == "pulumi:pulumi:StackReference":
            outputs = self.references[args.name]
            return args.name, {"name": args.name, "outputs": outputs, "secretOutputNames": []}
        if not args.typ.startswith("pulumi-python:dynamic/"):
            return "", {}
        # The engine strips secrets before a provider that does not accept them sees its inputs.
        outcome = self.stack.apply(args.typ, args.name, _reveal(args.inputs))
        key = _key(args.typ, args.name)
        self.operations[key] = outcome.operation
        self.registered.append(key)
        return outcome.state.id, outcome.state.outputs

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], None]:
        return {}, None


def _key(typ: str, name: str) -> str:
    return f"{typ.rpartition(':')[2]}:{name}"


def _reveal(value: Any) -> Any:
    value = rpc.unwrap_rpc_secret(value)
    if isinstance(value, dict):
        return {key: _reveal(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_reveal(item) for item in value]
    return value


class Stack:
    """One stack of one example: its config, its state, and the engine that changes it."""

    def __init__(self, engine: Engine, example: str, config: dict[str, str] | None = None) -> None:
        self.engine = engine
        self.example = example
        self.project = f"altostratus-{example}"
        self.config = dict(config or {})
        self.state: dict[str, tuple[str, str, State]] = {}
        """``<Type>:<name>`` → (type token, name, state), oldest first."""
        self._lock = threading.Lock()

    def urn(self, typ: str, name: str) -> str:
        return f"urn:pulumi:dev::{self.project}::{typ}::{name}"

    def apply(self, typ: str, name: str, news: dict[str, Any]) -> Outcome:
        key = _key(typ, name)
        with self._lock:
            prior = self.state.get(key)
        outcome = self.engine.apply(self.urn(typ, name), news, prior[2] if prior else None)
        with self._lock:
            self.state.pop(key, None)
            self.state[key] = (typ, name, outcome.state)
        return outcome

    def up(self, references: dict[str, dict[str, Any]] | None = None) -> UpResult:
        mocks = _Mocks(self, references or {})
        outputs = contextvars.Context().run(self._run_program, mocks)
        stale = [key for key in self.state if key not in mocks.registered]
        for key in reversed(stale):
            self._delete(key)
            mocks.operations[key] = "delete"
        return UpResult(outputs, mocks.operations)

    def destroy(self) -> None:
        for key in reversed(list(self.state)):
            self._delete(key)

    def _delete(self, key: str) -> None:
        typ, name, state = self.state.pop(key)
        self.engine.process.delete(self.urn(typ, name), state.id, state.outputs)

    def _run_program(self, mocks: _Mocks) -> dict[str, Any]:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            pulumi.runtime.set_all_config(
                {f"{self.project}:{key}": value for key, value in self.config.items()}
            )
            monitor = MockMonitor(mocks)
            pulumi.runtime.set_mocks(
                mocks, project=self.project, stack="dev", preview=False, monitor=monitor
            )
            runpy.run_path(str(EXAMPLES / self.example / "__main__.py"), run_name="__main__")
            return loop.run_until_complete(self._exports())
        finally:
            asyncio.set_event_loop(None)
            loop.close()

    @staticmethod
    async def _exports() -> dict[str, Any]:
        from pulumi.runtime.stack import wait_for_rpcs

        await wait_for_rpcs()
        root = pulumi.runtime.get_root_resource()
        assert root is not None
        names = list(root.outputs)  # type: ignore[attr-defined]
        values = [pulumi.Output.from_input(root.outputs[n]).future() for n in names]  # type: ignore[attr-defined]
        return dict(zip(names, await asyncio.gather(*values), strict=True))
