"""The step generator's rules, each against a scripted provider process."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from altostratus.testing import ResourceState, Snapshot
from altostratus.testing.runner import (
    Canceled,
    CheckFailure,
    Deployment,
    DiffAnswer,
    Goal,
    ResourceFailed,
    destroy,
    refresh,
)

TYPE = "pulumi-python:dynamic/altostratus:Thing"


def urn(name: str) -> str:
    return f"urn:pulumi:test::test::{TYPE}::{name}"


class ScriptedProcess:
    """Answers as a provider process would; ``diff_changes`` and ``read_inputs`` are scripted."""

    def __init__(self, diff_changes: int = DiffAnswer.DIFF_UNKNOWN) -> None:
        self.diff_changes = diff_changes
        self.read_inputs: dict[str, Any] | None = None
        self.calls: list[tuple[str, str]] = []
        self.barrier: threading.Barrier | None = None
        self.failing_deletes: set[str] = set()
        self.fail_creates: set[str] = set()

    def _meet(self) -> None:
        if self.barrier is not None:
            self.barrier.wait()  # raises BrokenBarrierError unless the calls overlap

    def check_result(
        self, urn: str, olds: dict[str, Any], news: dict[str, Any]
    ) -> tuple[dict[str, Any], list[CheckFailure]]:
        return {**news, "normalised": True}, []

    def diff(self, urn: str, id_: str, olds: Any, news: Any, old_inputs: Any = None) -> DiffAnswer:
        return DiffAnswer(self.diff_changes)

    def create(self, urn: str, props: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        self.calls.append(("create", urn))
        if urn in self.fail_creates:
            raise RuntimeError("refused")
        return f"id-{urn.rsplit('::', 1)[-1]}", dict(props)

    def update(self, urn: str, id_: str, olds: Any, news: dict[str, Any]) -> dict[str, Any]:
        self.calls.append(("update", urn))
        return dict(news)

    def read(self, urn: str, id_: str, outputs: Any, inputs: Any) -> tuple[str, Any, Any]:
        self.calls.append(("read", urn))
        self._meet()
        return id_, {**outputs, "live": True}, self.read_inputs

    def delete(self, urn: str, id_: str, outputs: Any) -> None:
        self.calls.append(("delete", urn))
        self._meet()
        if urn in self.failing_deletes:
            raise RuntimeError("in use")


def state(name: str, inputs: dict[str, Any], **options: Any) -> ResourceState:
    return ResourceState(urn(name), TYPE, f"id-{name}", inputs, dict(inputs), **options)


def up(process: ScriptedProcess, old: Snapshot, **inputs: Any) -> tuple[Deployment, Snapshot]:
    deployment = Deployment(old, process, {})  # type: ignore[arg-type]
    deployment.register(Goal(urn("a"), TYPE, "a", dict(inputs)))
    return deployment, deployment.finish()


def test_changes_unknown_makes_the_runner_diff_the_inputs() -> None:
    process = ScriptedProcess(DiffAnswer.DIFF_UNKNOWN)
    old = Snapshot([state("a", {"size": 1, "normalised": True})])
    same, _ = up(process, old, size=1)
    assert same.operations == {urn("a"): "same"}
    changed, after = up(process, old, size=2)
    assert changed.operations == {urn("a"): "update"}
    assert process.calls == [("update", urn("a"))]
    assert after.resources[0].outputs["size"] == 2


def test_same_stores_the_new_checked_inputs_and_keeps_the_outputs() -> None:
    process = ScriptedProcess(DiffAnswer.DIFF_NONE)
    old = Snapshot([state("a", {"size": 1})])
    deployment, after = up(process, old, size=1, note="new")
    assert deployment.operations == {urn("a"): "same"}
    (res,) = after.resources
    assert res.inputs == {"size": 1, "note": "new", "normalised": True}
    assert res.outputs == {"size": 1}
    assert process.calls == []


def test_a_read_without_inputs_keeps_the_old_ones() -> None:
    process = ScriptedProcess()
    old = Snapshot([state("a", {"size": 1})])
    outcome = refresh(old, process)  # type: ignore[arg-type]
    assert outcome.snapshot.resources[0].inputs == {"size": 1}
    assert outcome.snapshot.resources[0].outputs == {"size": 1, "live": True}
    process.read_inputs = {"size": 3}
    assert refresh(old, process).snapshot.resources[0].inputs == {"size": 3}  # type: ignore[arg-type]


def test_refresh_and_destroy_call_the_provider_in_parallel() -> None:
    process = ScriptedProcess()
    process.barrier = threading.Barrier(2, timeout=10)
    old = Snapshot([state("a", {}), state("b", {})])
    assert refresh(old, process).failures == []  # type: ignore[arg-type]
    outcome = destroy(old, process)  # type: ignore[arg-type]
    assert outcome.failures == [] and outcome.snapshot.resources == []


def test_destroy_deletes_dependents_first() -> None:
    process = ScriptedProcess()
    old = Snapshot([state("a", {}), state("b", {}, dependencies=[urn("a")]), state("c", {})])
    destroy(old, process)  # type: ignore[arg-type]
    deletes = [u for op, u in process.calls if op == "delete"]
    assert deletes.index(urn("b")) < deletes.index(urn("a"))


def test_a_failed_deferred_delete_is_retried_by_the_next_up() -> None:
    process = ScriptedProcess()
    process.failing_deletes = {urn("gone")}
    old = Snapshot([state("a", {"size": 1, "normalised": True}), state("gone", {})])
    deployment, after = up(process, old, size=1)
    assert [f.op for f in deployment.failures] == ["delete"]
    assert [r.name for r in after.resources] == ["a", "gone"]

    process.failing_deletes = set()
    deployment, after = up(process, after, size=1)
    assert deployment.operations == {urn("a"): "same", urn("gone"): "delete"}
    assert [r.name for r in after.resources] == ["a"]


@pytest.mark.parametrize("delete_first", [True, False])
def test_the_delete_before_replace_option_overrides_the_provider(delete_first: bool) -> None:
    class Replacing(ScriptedProcess):
        def diff(self, *args: Any, **kwargs: Any) -> DiffAnswer:
            return DiffAnswer(DiffAnswer.DIFF_SOME, ["size"], delete_before_replace=False)

    process = Replacing()
    deployment = Deployment(Snapshot([state("a", {"size": 1})]), process, {})  # type: ignore[arg-type]
    goal = Goal(urn("a"), TYPE, "a", {"size": 2}, delete_before_replace=delete_first)
    deployment.register(goal)
    deployment.finish()
    ops = [op for op, _ in process.calls]
    assert ops == (["delete", "create"] if delete_first else ["create", "delete"])


class DeleteFirst(ScriptedProcess):
    """``a`` asks to be replaced, deleted first; ``b``, fed by ``a``, is replaced with it."""

    def diff(self, urn: str, id_: str, olds: Any, news: Any, old_inputs: Any = None) -> DiffAnswer:
        if news != {k: v for k, v in olds.items() if k in news}:
            return DiffAnswer(DiffAnswer.DIFF_SOME, sorted(news), delete_before_replace=True)
        return DiffAnswer(DiffAnswer.DIFF_NONE)


def chain() -> Snapshot:
    b = state("b", {"a_id": "id-a"}, property_dependencies={"a_id": [urn("a")]})
    return Snapshot([state("a", {"size": 1}), b])


def test_a_dependent_deleted_first_and_never_recreated_stays_pending_replacement() -> None:
    process = DeleteFirst()
    deployment = Deployment(chain(), process, {})  # type: ignore[arg-type]
    deployment.register(Goal(urn("a"), TYPE, "a", {"size": 2}))
    after = deployment.finish(failed=True)  # the program failed before declaring b
    assert process.calls == [("delete", urn("b")), ("delete", urn("a")), ("create", urn("a"))]
    (b,) = [res for res in after.resources if res.name == "b"]
    assert b.pending_replacement

    # The next up recreates b without deleting it again, and refresh leaves it alone.
    process.calls.clear()
    refreshed = refresh(after, process)  # type: ignore[arg-type]
    assert process.calls == [("read", urn("a"))]
    assert refreshed.snapshot.resources[1] == b
    assert refreshed.operations[urn("b")] == "same"
    process.calls.clear()
    deployment = Deployment(after, process, {})  # type: ignore[arg-type]
    deployment.register(Goal(urn("a"), TYPE, "a", {"size": 2}))
    deployment.register(Goal(urn("b"), TYPE, "b", {"a_id": "id-a"}))
    final = deployment.finish()
    assert deployment.operations == {urn("a"): "same", urn("b"): "replace"}
    assert process.calls == [("create", urn("b"))]
    assert [(r.name, r.pending_replacement) for r in final.resources] == [
        ("a", False),
        ("b", False),
    ]


def test_a_dependent_deleted_first_and_no_longer_declared_is_only_forgotten() -> None:
    process = DeleteFirst()
    deployment = Deployment(chain(), process, {})  # type: ignore[arg-type]
    deployment.register(Goal(urn("a"), TYPE, "a", {"size": 2}))
    after = deployment.finish()
    assert deployment.operations == {urn("a"): "replace", urn("b"): "delete"}
    assert process.calls == [("delete", urn("b")), ("delete", urn("a")), ("create", urn("a"))]
    assert [r.name for r in after.resources] == ["a"]


def test_after_a_failed_step_no_other_step_starts() -> None:
    process = ScriptedProcess()
    process.fail_creates = {urn("x")}
    deployment = Deployment(Snapshot(), process, {})  # type: ignore[arg-type]
    with pytest.raises(ResourceFailed):
        deployment.register(Goal(urn("x"), TYPE, "x", {}))
    with pytest.raises(Canceled):
        deployment.register(Goal(urn("y"), TYPE, "y", {}))
    assert process.calls == [("create", urn("x"))]
    assert [f.urn for f in deployment.failures] == [urn("x")]
    assert deployment.finish().resources == []


def test_destroy_goes_on_past_a_protected_resource() -> None:
    """``stepExecutor.cancelDueToError`` continues past a refused protected delete, so every
    protected resource is reported and the rest is deleted."""
    process = ScriptedProcess()
    old = Snapshot([state("kept", {}, protect=True), state("a", {}), state("b", {})])
    outcome = destroy(old, process)  # type: ignore[arg-type]
    assert [f.urn for f in outcome.failures] == [urn("kept")]
    assert sorted(u for op, u in process.calls if op == "delete") == [urn("a"), urn("b")]
    assert [res.name for res in outcome.snapshot.resources] == ["kept"]


def test_a_delete_of_a_resource_deleted_with_another_calls_no_provider() -> None:
    process = ScriptedProcess()
    old = Snapshot([state("net", {}), state("fw", {}, deleted_with=urn("net"))])
    outcome = destroy(old, process)  # type: ignore[arg-type]
    assert outcome.operations == {urn("fw"): "delete", urn("net"): "delete"}
    assert process.calls == [("delete", urn("net"))]


@pytest.mark.parametrize(
    ("changes", "op"), [(DiffAnswer.DIFF_NONE, "same"), (DiffAnswer.DIFF_SOME, "update")]
)
def test_refresh_reports_what_the_providers_diff_says(changes: int, op: str) -> None:
    """``RefreshStep.ResultOp``: the refreshed outputs differ (``live``), the diff decides."""
    process = ScriptedProcess(changes)
    outcome = refresh(Snapshot([state("a", {"size": 1})]), process)  # type: ignore[arg-type]
    assert outcome.operations == {urn("a"): op}
    assert outcome.snapshot.resources[0].outputs["live"] is True


def test_a_failed_replacement_leaves_the_old_resource_unmarked() -> None:
    class Replacing(ScriptedProcess):
        def diff(self, *args: Any, **kwargs: Any) -> DiffAnswer:
            return DiffAnswer(DiffAnswer.DIFF_SOME, ["size"])

    process = Replacing()
    process.fail_creates = {urn("a")}
    deployment = Deployment(Snapshot([state("a", {"size": 1})]), process, {})  # type: ignore[arg-type]
    with pytest.raises(ResourceFailed):
        deployment.register(Goal(urn("a"), TYPE, "a", {"size": 2}))
    (old,) = deployment.finish().resources
    assert (old.id, old.delete) == ("id-a", False)
