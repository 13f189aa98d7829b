"""``Stack(engine=...)``: the real engine through the Automation API where the CLI is installed.

The tests that run the CLI are marked ``real_engine``; how the engine's
events and exported state are read is checked everywhere, on the engine's own formats.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pulumi
import pytest
from pulumi import automation as auto
from pulumi.automation import events as ev
from pulumi.automation._cmd import CommandResult

import altostratus as alto
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack, StepEvent
from altostratus.testing.real import (
    SECRET_SIGNATURE,
    AutomationStack,
    EngineEvents,
    check_failure,
    exported_resource,
)
from tests.support.account import leftovers

needs_cli = pytest.mark.real_engine
URN = "urn:pulumi:test::proj::pulumi-python:dynamic:Resource$altostratus:index:Network::app"


@pytest.mark.parametrize(
    ("engine", "cli", "chosen"),
    [
        (None, False, "runner"),
        ("runner", True, "runner"),
        ("auto", False, "runner"),
        ("auto", True, "pulumi"),
        ("pulumi", True, "pulumi"),
    ],
)
def test_the_engine_is_chosen_explicitly_or_by_the_cli_on_path(
    monkeypatch: pytest.MonkeyPatch, engine: str | None, cli: bool, chosen: str
) -> None:
    monkeypatch.delenv("ALTOSTRATUS_TESTING_ENGINE", raising=False)
    monkeypatch.setattr(shutil, "which", lambda name: f"/bin/{name}" if cli else None)
    assert Stack(lambda: None, engine=engine).engine == chosen


def test_the_environment_sets_the_default_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("ALTOSTRATUS_TESTING_ENGINE", "auto")
    assert Stack(lambda: None).engine == "runner"
    monkeypatch.setenv("ALTOSTRATUS_TESTING_ENGINE", "pulumi")
    with pytest.raises(RuntimeError, match="needs the pulumi CLI on PATH"):
        Stack(lambda: None)
    with pytest.raises(ValueError, match="runner, pulumi, auto"):
        Stack(lambda: None, engine="terraform")


def test_the_engines_check_failure_messages_name_the_property() -> None:
    message = (
        "<{%reset%}>pulumi-python:dynamic:Resource resource 'app's property 'cidr_v4' value "
        "{10.0.0.0/33} has a problem: cidr_v4 must be a private IPv4 range<{%reset%}>"
    )
    assert check_failure(message) == ("cidr_v4", "cidr_v4 must be a private IPv4 range")
    current = (
        "pulumi-python:dynamic/altostratus:Network resource 'app': property cidr_v4 value "
        "{10.0.0.0/33} has a problem: cidr_v4 must be a private IPv4 range\n"
    )
    assert check_failure(current) == ("cidr_v4", "cidr_v4 must be a private IPv4 range")
    whole = "pulumi-python:dynamic:Resource resource 'app' has a problem: label is required"
    assert check_failure(whole) == ("", "label is required")
    assert check_failure("error: update failed") is None


def test_engine_events_become_operations_progress_and_check_failures() -> None:
    seen: list[StepEvent] = []
    events = EngineEvents(seen.append, preview=False)

    def step(kind: str, op: str) -> ev.EngineEvent:
        meta = ev.StepEventMetadata(ev.OpType(op), URN, "altostratus:index:Network", "p")
        payload = {
            "resource_pre_event": ev.ResourcePreEvent(meta),
            "res_outputs_event": ev.ResOutputsEvent(meta),
            "res_op_failed_event": ev.ResOpFailedEvent(meta, 1, 1),
        }[kind]
        return ev.EngineEvent(1, 0, **{kind: payload})

    events(step("resource_pre_event", "create-replacement"))
    events(step("res_outputs_event", "create-replacement"))
    events(step("resource_pre_event", "delete-replaced"))
    events(step("res_op_failed_event", "delete-replaced"))
    diag = ev.DiagnosticEvent(
        "Network resource 'app's property 'label' value {x} has a problem: too long",
        "never",
        "error",
        urn=URN,
    )
    events(ev.EngineEvent(2, 0, diagnostic_event=diag))
    reference = ev.StepEventMetadata(
        ev.OpType("read"), "urn:ref", "pulumi:pulumi:StackReference", "p"
    )
    events(ev.EngineEvent(3, 0, resource_pre_event=ev.ResourcePreEvent(reference)))

    assert events.operations == {URN: ("altostratus:index:Network", "replace")}
    assert [(e.op, e.status) for e in seen] == [
        ("create-replacement", "started"),
        ("create-replacement", "done"),
        ("delete-replaced", "started"),
        ("delete-replaced", "failed"),
    ]
    (failure,) = events.check_failures
    assert (failure.resource, failure.property, failure.reason) == (
        "Network:app",
        "label",
        "too long",
    )


def test_exported_secrets_are_revealed_and_marked() -> None:
    sealed = {SECRET_SIGNATURE: "1b47061264138c4ac30d75fd1eb44270", "plaintext": json.dumps("s3")}
    res = exported_resource(
        {
            "urn": URN,
            "type": "pulumi-python:dynamic:Resource",
            "id": "net-1",
            "inputs": {"__provider": "pickled", "label": "app", "token": sealed},
            "outputs": {"label": "app", "secret_access_key": sealed, "tags": ["a", sealed]},
        },
        op="create",
    )
    assert res.inputs == {"label": "app", "token": "s3"}
    assert res.outputs == {"label": "app", "secret_access_key": "s3", "tags": ["a", "s3"]}
    assert res.secret_outputs == {"secret_access_key", "tags"}
    assert (res.id, res.op) == ("net-1", "create")


class ScriptedCli:
    """Plays the CLI's side of ``pulumi.automation.Stack``: events, answers and the export."""

    def __init__(self) -> None:
        self.resources: list[dict[str, Any]] = []

    def export_stack(self) -> SimpleNamespace:
        provider = {"urn": "urn:provider", "type": "pulumi:providers:pulumi-python"}
        return SimpleNamespace(deployment={"resources": [provider, *self.resources]})

    @staticmethod
    def _step(on_event: Callable[[ev.EngineEvent], None], op: str) -> None:
        meta = ev.StepEventMetadata(ev.OpType(op), URN, "pulumi-python:dynamic:Resource", "p")
        on_event(ev.EngineEvent(1, 0, resource_pre_event=ev.ResourcePreEvent(meta)))
        on_event(ev.EngineEvent(2, 0, res_outputs_event=ev.ResOutputsEvent(meta)))

    def up(self, on_event: Callable[[ev.EngineEvent], None]) -> SimpleNamespace:
        self._step(on_event, "create")
        sealed = {SECRET_SIGNATURE: "x", "plaintext": json.dumps("s3cr3t")}
        self.resources = [
            {
                "urn": URN,
                "type": "pulumi-python:dynamic:Resource",
                "id": "net-1",
                "inputs": {"cidr_v4": "10.30.0.0/24"},
                "outputs": {"cidr_v4": "10.30.0.0/24", "label": "app-1", "key": sealed},
            }
        ]
        outputs = {"cidr": auto.OutputValue("10.30.0.0/24", False)}
        return SimpleNamespace(outputs=outputs)

    def refresh(self, on_event: Callable[[ev.EngineEvent], None]) -> None:
        self._step(on_event, "refresh")
        self.resources[0]["outputs"] = {**self.resources[0]["outputs"], "label": "renamed"}

    def destroy(self, on_event: Callable[[ev.EngineEvent], None]) -> None:
        self._step(on_event, "delete")
        self.resources = []

    def preview(self, on_event: Callable[[ev.EngineEvent], None]) -> None:
        message = "Resource resource 'app's property 'cidr_v4' value {x} has a problem: bad range"
        diag = ev.DiagnosticEvent(message, "never", "error", urn=URN)
        on_event(ev.EngineEvent(1, 0, diagnostic_event=diag))
        raise auto.CommandError(CommandResult("", "error: preview failed", 255))


def test_the_real_engines_answers_become_the_same_results() -> None:
    stack = AutomationStack.__new__(AutomationStack)
    stack._auto = auto
    stack.stack = ScriptedCli()
    seen: list[StepEvent] = []

    up = stack.run("up", seen.append)
    assert up.operations == {"Network:app": "create"}
    assert up.outputs["cidr"].value == "10.30.0.0/24"
    network = up.resources["Network:app"]
    assert (network.id, network.inputs) == ("net-1", {"cidr_v4": "10.30.0.0/24"})
    assert network.outputs["key"] == "s3cr3t" and network.secret_outputs == {"key"}
    assert [(e.op, e.status) for e in seen] == [("create", "started"), ("create", "done")]

    refreshed = stack.run("refresh", None)
    assert refreshed.operations == {"Network:app": "update"}
    assert refreshed.resources["Network:app"].outputs["label"] == "renamed"

    with pytest.raises(DeploymentFailed) as failed:
        stack.run("preview", None)
    assert [(f.resource, f.property, f.reason) for f in failed.value.check_failures] == [
        ("Network:app", "cidr_v4", "bad range")
    ]
    assert "error: preview failed" in str(failed.value)

    destroyed = stack.run("destroy", None)
    assert destroyed.operations == {"Network:app": "delete"}
    assert destroyed.resources["Network:app"].id == "net-1"  # as it was before the destroy


def network_program() -> None:
    config = pulumi.Config()
    network = alto.Network("app", cidr_v4=config.get("cidr") or "10.30.0.0/24")
    pulumi.export("cidr", network.cidr_v4)
    pulumi.export("token", config.require_secret("token"))


@needs_cli
def test_the_real_engine_answers_through_the_same_api(
    altostratus_stack: Callable[..., Stack], altostratus_fresh_emulator: Emulator
) -> None:
    stack = altostratus_stack(network_program, engine="pulumi")
    stack.set_config("token", "t0k3n-0123456789", secret=True)

    assert stack.preview().operations == {"Network:app": "create"}
    first = stack.up()
    assert first.operations == {"Network:app": "create"}
    assert first.outputs["cidr"].value == "10.30.0.0/24"
    assert first.outputs["token"].secret

    stack.set_config("cidr", "10.31.0.0/24")
    assert stack.up().changed() == {"Network:app": "replace"}
    assert stack.refresh().operations == {"Network:app": "same"}
    assert stack.destroy().operations == {"Network:app": "delete"}
    assert leftovers(altostratus_fresh_emulator) == {}


@needs_cli
def test_the_real_engine_reports_check_failures_and_references(
    altostratus_stack: Callable[..., Stack],
) -> None:
    def program() -> None:
        other = pulumi.StackReference("organization/network/prod")
        alto.Network("app", cidr_v4=other.get_output("cidr"))

    stack = altostratus_stack(
        program,
        engine="pulumi",
        references={"organization/network/prod": {"cidr": "10.0.0.0/33"}},
    )
    with pytest.raises(DeploymentFailed) as failed:
        stack.up()
    assert [(f.resource, f.property) for f in failed.value.check_failures] == [
        ("Network:app", "cidr_v4")
    ]
    stack.set_reference("organization/network/prod", {"cidr": "10.32.0.0/24"})
    assert stack.up().resources["Network:app"].inputs["cidr_v4"] == "10.32.0.0/24"
    stack.destroy()
