"""Checking, creating and replacing: the diff's verdict and what a replacement involves.

``Replacements.decide`` follows ``generateStepsFromDiff``, ``stepGenerator.diff`` and
``continueStepsFromDiff`` (``pkg/resource/deploy/step_generator.go``): a changed
``replacement_trigger`` replaces without asking the provider; so does the replacement of a
resource named in ``replace_with``, or of the one the resource is ``deleted_with``; otherwise the
provider's diff decides, and a changed key under a ``replace_on_changes`` path replaces.
``replace`` refuses to replace a protected resource, re-checks with no olds, then creates the
replacement first, or deletes first (with the dependents the replacement would replace) when the
diff or ``delete_before_replace`` asks.
"""

from __future__ import annotations

from typing import Any

from altostratus.testing._properties import (
    UNKNOWN,
    Properties,
    annotate_secrets,
    contains_unknowns,
    reveal,
)
from altostratus.testing.runner.deletes import delete_one
from altostratus.testing.runner.ledger import Ledger
from altostratus.testing.runner.paths import ignore_changes, replace_on_changes
from altostratus.testing.runner.process import DiffAnswer
from altostratus.testing.runner.state import Goal, ResourceState, provider_urn, runs
from altostratus.testing.runner.steps import ResourceFailed

PROTECTED_REPLACE = (
    'unable to replace resource "{urn}" as it is currently marked for protection. To unprotect '
    "the resource, remove the `protect` flag from the resource in your Pulumi program and run "
    "`pulumi up`"
)
PROTECTED_DEPENDENT = (
    'unable to replace resource "{urn}" as part of replacing "{root}" as it is currently marked '
    "for protection. To unprotect the resource, remove the `protect` flag from the resource in "
    "your Pulumi program and run `pulumi up`, or use the command: `pulumi state unprotect "
    "'{urn}'`"
)


def should_trigger_replace(new: Any, old: Any) -> bool:
    """``shouldTriggerReplace``: an unknown trigger always replaces, a missing one never; else
    any change of value does (secrets compared by their values)."""
    if contains_unknowns(new) or contains_unknowns(old):
        return True
    if new is None or old is None:
        return False
    return bool(reveal(new) != reveal(old))


class Replacements:
    """The deployment's checks, creates, diffs and replacements, over its ``ledger``."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def check(self, goal: Goal, olds: Properties, news: Properties) -> Properties:
        """``Check`` of ``news`` against ``olds``; secrets marked again where ``news`` had them
        (``annotateSecrets`` in ``provider_plugin.go``).

        ``issueCheckErrors`` reports each refused property and the step generator bails on the
        invalid resource. The engine checks one registration at a time, so only the first
        invalid resource is reported: a check the runner made alongside it, which the engine
        would not have made, is canceled.
        """
        steps = self.ledger.steps
        with steps.step("check", goal.urn, goal.type):
            inputs, failures = self.ledger.process.check_result(
                goal.urn, reveal(olds), reveal(news)
            )
            if failures and steps.first_failure():
                reasons = "; ".join(f"{f.property}: {f.reason}" for f in failures)
                raise ResourceFailed(goal.urn, "check", reasons, failures=failures)
        if failures:
            steps.check_canceled(goal.urn)
        return annotate_secrets(inputs, news)

    def create(self, goal: Goal, inputs: Properties, op: str) -> tuple[str, Properties]:
        ledger = self.ledger
        if ledger.preview:
            # ``provider.Create`` (provider_plugin.go): a provider without preview support
            # gives its inputs back as the state during a preview.
            return ledger.record(goal, op, "", inputs, inputs)
        step = "create-replacement" if op == "replace" else "create"
        with ledger.steps.step(step, goal.urn, goal.type):
            id_, outs = ledger.process.create(goal.urn, reveal(inputs))
        outputs = annotate_secrets(outs, inputs)
        return ledger.record(goal, op, id_, inputs, outputs)

    def decide(self, goal: Goal, old: ResourceState, inputs: Properties) -> tuple[DiffAnswer, bool]:
        """The diff, and whether the replacement trigger alone asks for a replacement."""
        trigger = goal.replacement_trigger
        if not self.ledger.preview and contains_unknowns(trigger):
            message = f"replacement trigger contains unknowns for {goal.urn}"
            raise ResourceFailed(goal.urn, "register", message)
        if should_trigger_replace(trigger, old.replacement_trigger):
            return DiffAnswer(DiffAnswer.DIFF_SOME), True
        replaced = self.ledger.replaced()
        if replaced.intersection(goal.replace_with):
            return DiffAnswer(DiffAnswer.DIFF_SOME, ["replaceWith"]), False
        if goal.deleted_with and goal.deleted_with in replaced:
            return DiffAnswer(DiffAnswer.DIFF_SOME, ["deletedWith"]), False
        if goal.provider and provider_urn(goal.provider) in replaced:
            # ``providerChanged``: its provider was replaced, so the resource is too.
            return DiffAnswer(DiffAnswer.DIFF_SOME, ["provider"]), False
        diff = self._diff(goal.urn, old, inputs, goal.ignore_changes)
        if diff.some:
            # ``applyReplaceOnChanges``: only the keys the diff names can match a path; the
            # dynamic provider names none, so ``replace_on_changes`` cannot act on its resources.
            extra = replace_on_changes(diff.changed_keys, goal.replace_on_changes)
            diff.replaces += [key for key in extra if key not in diff.replaces]
        return diff, False

    def _diff(
        self, urn: str, old: ResourceState, inputs: Properties, ignored: list[str]
    ) -> DiffAnswer:
        with self.ledger.steps.step("diff", urn, old.type):
            diff = self.ledger.process.diff(
                urn, old.id, reveal(old.outputs), reveal(inputs), reveal(old.inputs)
            )
        if diff.changes == DiffAnswer.DIFF_UNKNOWN:
            # ``diffResource``: "changes unknown" makes the engine diff the inputs itself, the
            # ignored changes undone first.
            olds = reveal(old.inputs)
            news = reveal(ignore_changes(inputs, old.inputs, ignored))
            changed = sorted(k for k in olds.keys() | news.keys() if olds.get(k) != news.get(k))
            diff.changes = DiffAnswer.DIFF_SOME if changed else DiffAnswer.DIFF_NONE
            diff.changed_keys = changed
        return diff

    def replace(self, goal: Goal, old: ResourceState, diff: DiffAnswer) -> tuple[str, Properties]:
        ledger = self.ledger
        if goal.protect and old.protect:
            # Unprotecting and replacing in one update is allowed: both must be protected.
            # The step generator refuses it before any step starts: no operation is reported.
            message = PROTECTED_REPLACE.format(urn=goal.urn)
            refused = ResourceFailed(goal.urn, "replace", message, started=False)
            if not ledger.preview:
                raise refused
            ledger.report(refused)  # a preview reports it and shows the rest
        if goal.import_id and not ledger.preview:
            message = (
                "previously-imported resources that still specify an ID may not be replaced; "
                "please remove the `import` declaration from your program"
            )
            raise ResourceFailed(goal.urn, "replace", message)
        ledger.mark_replaced(goal.urn)
        # ``continueStepsFromDiff``: a replacement recomputes the defaults, so it is checked
        # again with no olds (fresh auto-names).
        inputs = self.check(goal, {}, goal.properties)
        delete_first = diff.delete_before_replace
        if goal.delete_before_replace is not None:
            delete_first = goal.delete_before_replace
        if not delete_first:
            # Create the replacement now; the old one is marked for deletion once it exists and
            # deleted after every other step.
            created = self.create(goal, inputs, "replace")
            ledger.condemn(old)
            return created
        # Delete-before-replace: first the dependents that the replacement would replace
        # (``calculateDependentReplacements``) and those replaced or deleted with it
        # (``findDependentCascadeReplacements``), in reverse dependency order, then the old one.
        # What this deployment registered and deleted so far, as the step generator sees it
        # when the replacement is decided.
        registered, deleted = ledger.registered(), ledger.deleted()
        dependents = self._dependent_replacements(old, registered | deleted)
        dependents += [
            res for res in self._cascade(old, registered) if all(res is not d for d in dependents)
        ]
        for res in dependents:
            if res.protect and not res.delete:
                message = PROTECTED_DEPENDENT.format(urn=res.urn, root=goal.urn)
                raise ResourceFailed(goal.urn, "replace", message)
        deleting = ledger.deleted() | {old.urn} | {res.urn for res in dependents}
        for res in [*reversed(dependents), old]:
            if res.urn in ledger.deleted():
                continue  # already deleted by another delete-before-replace
            delete_one(
                ledger.process, ledger.steps, res, op="delete-replaced", deleting=deleting,
                replacing=True,
            )  # fmt: skip
            ledger.mark_deleted(res)
        return self.create(goal, inputs, "replace")

    def _dependent_replacements(
        self, root: ResourceState, registered: set[str]
    ) -> list[ResourceState]:
        """Old resources depending on ``root`` that its replacement would replace, in order.

        A dependent qualifies when a property fed by a replaced resource, made unknown, makes
        its provider's diff ask for a replacement; resources already registered in this
        deployment (or deleted by it), ``registered``, cannot depend on the root and are skipped
        (``impossibleDependents``).
        """
        replaced = {root.urn}
        found: list[ResourceState] = []
        for res in self.ledger.old.resources:
            if res.delete or res.urn in registered or not (res.depends_on() & replaced):
                continue
            if not res.custom or res.external or not runs(res.type):
                continue
            unknown = {
                key
                for key, urns in res.property_dependencies.items()
                if replaced.intersection(urns)
            }
            if not unknown:
                continue
            news = {k: (UNKNOWN if k in unknown else v) for k, v in res.inputs.items()}
            if self._diff(res.urn, res, news, []).replaces:
                replaced.add(res.urn)
                found.append(res)
        return found

    def _cascade(self, root: ResourceState, registered: set[str]) -> list[ResourceState]:
        """``findDependentCascadeReplacements``: old resources that name ``root`` in
        ``replace_with`` or are ``deleted_with`` it (those ``registered`` in this deployment
        cannot: they wait for the root)."""
        return [
            res
            for res in self.ledger.old.resources
            if not res.delete
            and res.urn not in registered
            and (root.urn in res.replace_with or res.deleted_with == root.urn)
        ]
