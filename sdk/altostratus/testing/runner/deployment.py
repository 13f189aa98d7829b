"""The step generator of ``pulumi up`` and ``pulumi preview``, for dynamic resources.

``Deployment.register`` handles one resource as the program registers it and
``Deployment.finish`` (``_deletes``) runs what the engine leaves to the end of the deployment.
Each rule names the function of the engine's source it follows
(``pkg/resource/deploy/step_generator.go`` unless another file is named). Resources of other
providers get the outputs the caller supplies; component resources only record their inputs.
"""

from __future__ import annotations

from altostratus.testing._properties import (
    Properties,
    annotate_secrets,
    mark_secret_outputs,
    reveal,
)
from altostratus.testing.runner.deletes import DeferredDeletes
from altostratus.testing.runner.ledger import OtherProvider
from altostratus.testing.runner.paths import ignore_changes
from altostratus.testing.runner.reads import Reads
from altostratus.testing.runner.replacements import Replacements
from altostratus.testing.runner.state import Goal, ResourceState, is_dynamic

__all__ = ["Deployment", "OtherProvider"]


class Deployment(Replacements, Reads, DeferredDeletes):
    """One ``pulumi up`` (or, with ``preview``, ``pulumi preview``) over an old snapshot."""

    def register(self, goal: Goal) -> tuple[str, Properties]:
        """Step generation and execution for one registration; the id and outputs to return."""
        return self._counted(lambda: self._register(goal))

    def _register(self, goal: Goal) -> tuple[str, Properties]:
        # After a failure the engine generates no more steps (``deploymentExecutor.Execute``).
        self.steps.check_canceled(goal.urn)
        self._claim(goal)
        old = self._take_old(goal)
        # ``continueStepsFromImport``: with an old state, the paths of ``ignore_changes`` go back
        # to their old values before anything else looks at the inputs (``processIgnoreChanges``).
        news = goal.properties
        if old is not None:
            news = ignore_changes(goal.properties, old.inputs, goal.ignore_changes)
        if not goal.custom:
            # A component has no provider: "diffs exist" when its inputs changed (``diff``).
            same = old is not None and old.inputs == news
            op = "same" if same else ("update" if old else "create")
            self._record(goal, op, old.id if old else "", goal.properties, {})
            return "", {}
        if not is_dynamic(goal.type):
            return self._register_other(goal, old, news)
        if self._imports(goal, old):
            return self._import(goal)
        return self._register_dynamic(goal, old, news)

    def _register_other(
        self, goal: Goal, old: ResourceState | None, news: Properties
    ) -> tuple[str, Properties]:
        if old is not None and old.inputs == news:
            self._record(goal, "same", old.id, news, old.outputs)
            return old.id, old.outputs
        if self.preview:
            # A preview creates nothing: the new state holds the inputs, the id is not known.
            op = "update" if old else "create"
            return self._record(goal, op, old.id if old else "", news, news)
        id_, outputs = self.other_provider(goal)
        outputs = mark_secret_outputs(outputs, news, goal.additional_secret_outputs)
        self._record(goal, "update" if old else "create", id_, news, outputs)
        return id_, outputs

    def _register_dynamic(
        self, goal: Goal, old: ResourceState | None, news: Properties
    ) -> tuple[str, Properties]:
        with self._lock:
            recreating = old is not None and old.urn in self._deleted
        # ``continueStepsFromImport``: no olds when the resource is new, was deleted earlier in
        # this deployment (a delete-before-replace of a resource it depends on), or was only read
        # (``External``): Pulumi does not own its inputs. Those are checked as the program gave
        # them; the others against the old inputs, with the ignored changes undone.
        if old is None or recreating or old.external:
            inputs = self._check(goal, {}, goal.properties)
        else:
            inputs = self._check(goal, old.inputs, news)
        if old is None:
            return self._create(goal, inputs, "create")
        if recreating:
            # Case 1 "recreating": already deleted, so it is replaced without a diff.
            return self._create(goal, inputs, "replace")
        if old.external:
            # Case 2 "wasExternal": a resource the stack only read is now declared. Pulumi may
            # not touch the one it read, so it creates one in its place; the read one is
            # "deleted" at the end, which for an external resource only forgets it.
            created = self._create(goal, inputs, "replace")
            self._condemn(old)
            return created
        if old.pending_replacement:
            # ``continueStepsFromDiff``: deleted by an earlier, failed deployment's
            # delete-before-replace, so replaced whatever the diff says, with nothing to delete.
            return self._create(goal, self._check(goal, {}, goal.properties), "replace")
        diff, triggered = self._decide(goal, old, inputs)
        with self._lock:
            self.diffs[goal.urn] = diff
        if not diff.some:
            # ``SameStep.Apply`` (step.go) keeps the old id and outputs and the new inputs.
            return self._record(goal, "same", old.id, inputs, old.outputs)
        if not (diff.replaces or triggered):
            return self._update(goal, old, inputs)
        return self._replace(goal, old, diff)

    def _update(self, goal: Goal, old: ResourceState, inputs: Properties) -> tuple[str, Properties]:
        if self.preview:
            return self._record(goal, "update", old.id, inputs, inputs)
        with self.steps.step("update", goal.urn, goal.type):
            outs = self.process.update(goal.urn, old.id, reveal(old.outputs), reveal(inputs))
        return self._record(goal, "update", old.id, inputs, annotate_secrets(outs, inputs))
