"""The step generator of ``pulumi up`` and ``pulumi preview``, for the resources of both front
ends (dynamic and the provider plugin's: ``fronts`` sends each call to its process).

``Deployment.register`` handles one resource as the program registers it, ``Deployment.read``
one it reads, and ``Deployment.finish`` runs what the engine leaves to the end of the
deployment. Each rule names the function of the engine's source it follows
(``pkg/resource/deploy/step_generator.go`` unless another file is named). Resources of other
providers get the outputs the caller supplies; component resources only record their inputs;
the plugin's provider resources (the default one, registered with the first plugin resource that
names no provider, and ``altostratus.Provider``) record their configuration.

The deployment keeps its record in one ``Ledger`` (``ledger``) and hands it to each phase, an
object of its own module: ``Replacements`` (check, create, diff, replace), ``Reads`` (read and
import steps) and ``deletes.finish`` (the deletes at the end). None of them touches another's
state: each goes through the ledger's methods.
"""

from __future__ import annotations

import threading
from typing import NoReturn

from pulumi.runtime import rpc

from altostratus.testing._properties import (
    Properties,
    annotate_secrets,
    mark_secret_outputs,
    reveal,
)
from altostratus.testing._results import PLUGIN, EventSink, front_of
from altostratus.testing.runner.deletes import finish
from altostratus.testing.runner.fronts import Calls, Providers, new_provider_id
from altostratus.testing.runner.ledger import Ledger, OtherProvider
from altostratus.testing.runner.paths import ignore_changes
from altostratus.testing.runner.process import DiffAnswer
from altostratus.testing.runner.reads import Reads
from altostratus.testing.runner.replacements import Replacements
from altostratus.testing.runner.state import PLUGIN_PROVIDER, Goal, ResourceState, Snapshot, runs
from altostratus.testing.runner.steps import ResourceFailed

__all__ = ["Deployment", "OtherProvider"]


class Deployment:
    """One ``pulumi up`` (or, with ``preview``, ``pulumi preview``) over an old snapshot."""

    def __init__(
        self,
        old: Snapshot,
        process: Calls,
        config: Properties,
        *,
        preview: bool = False,
        on_event: EventSink | None = None,
        other_provider: OtherProvider | None = None,
        parallel: int | None = None,
    ) -> None:
        self.ledger = Ledger(
            old,
            process,
            config,
            preview=preview,
            on_event=on_event,
            other_provider=other_provider,
            parallel=parallel,
        )
        self.replacements = Replacements(self.ledger)
        self.reads = Reads(self.ledger)
        self._default_provider = threading.Lock()
        self._default_reference = ""

    @property
    def operations(self) -> dict[str, str]:
        """Each URN's operation so far (``create``, ``same``, ``update``, ``replace``, ...)."""
        return self.ledger.operations

    @property
    def diffs(self) -> dict[str, DiffAnswer]:
        """The provider's diff of each resource that had an old state."""
        return self.ledger.diffs

    @property
    def failures(self) -> list[ResourceFailed]:
        """The failures so far, as the engine reports them."""
        return self.ledger.failures

    def register(self, goal: Goal) -> tuple[str, Properties]:
        """Step generation and execution for one registration; the id and outputs to return."""
        return self.ledger.counted(lambda: self._register(goal))

    def read(self, goal: Goal, id_: str) -> tuple[str, Properties]:
        """The read step of a resource the program reads (``ResourceOptions(id=...)``)."""
        if front_of(goal.type) == PLUGIN:
            self._served(goal)
        return self.ledger.counted(lambda: self.reads.read(goal, id_))

    def fail(self, failed: ResourceFailed) -> NoReturn:
        """Record a failure the program's monitor found, as the engine reports it, and raise it."""
        self.ledger.fail(failed)

    def finish(self, *, failed: bool = False) -> Snapshot:
        """The deletes at the end of the deployment (see ``deletes.finish``); the new state.
        ``failed`` tells that the program itself failed."""
        return finish(self.ledger, failed=failed)

    def _register(self, goal: Goal) -> tuple[str, Properties]:
        ledger = self.ledger
        # After a failure the engine generates no more steps (``deploymentExecutor.Execute``).
        ledger.steps.check_canceled(goal.urn)
        ledger.claim(goal)
        old = ledger.take_old(goal)
        # ``continueStepsFromImport``: with an old state, the paths of ``ignore_changes`` go back
        # to their old values before anything else looks at the inputs (``processIgnoreChanges``).
        news = goal.properties
        if old is not None:
            news = ignore_changes(goal.properties, old.inputs, goal.ignore_changes)
        if not goal.custom:
            # A component has no provider: "diffs exist" when its inputs changed (``diff``).
            same = old is not None and old.inputs == news
            op = "same" if same else ("update" if old else "create")
            ledger.record(goal, op, old.id if old else "", goal.properties, {})
            return "", {}
        if goal.type == PLUGIN_PROVIDER:
            return self._register_provider(goal, old)
        if not runs(goal.type):
            return self._register_other(goal, old, news)
        if front_of(goal.type) == PLUGIN:
            self._served(goal)
        if self.reads.imports(goal, old):
            return self.reads.import_(goal)
        return self._register_dynamic(goal, old, news)

    def _register_provider(self, goal: Goal, old: ResourceState | None) -> tuple[str, Properties]:
        """A provider resource of the plugin: its inputs are its configuration, kept as its
        outputs too; a new one gets a new id (not known yet in a preview)."""
        ledger, inputs = self.ledger, goal.properties
        providers = ledger.process if isinstance(ledger.process, Providers) else None
        new_id = rpc.UNKNOWN if ledger.preview else new_provider_id()
        if old is None:
            op, id_ = "create", new_id
        elif reveal(old.inputs) == reveal(inputs):
            op, id_ = "same", old.id
        elif providers is not None and providers.config_replaces(goal.urn, old.inputs, inputs):
            # ``DiffConfig`` asks for a replacement (another API URL): a new provider, and each
            # of its resources replaced (``providerChanged`` in step_generator.go); the old ones
            # are deleted by the old provider at the end.
            op, id_ = "replace", new_id
            ledger.mark_replaced(goal.urn)
            ledger.condemn(old)
        else:
            op, id_ = "update", old.id
        if providers is not None:
            providers.instance(f"{goal.urn}::{id_}", inputs)
        return ledger.record(goal, op, id_, inputs, dict(inputs))

    def _served(self, goal: Goal) -> None:
        """The provider instance of a plugin resource: the one it names, else the default
        provider, registered (once per deployment) before the first resource that uses it."""
        providers = self.ledger.process
        if not goal.provider and isinstance(providers, Providers) and providers.default:
            with self._default_provider:
                if not self._default_reference:
                    urn, inputs = providers.default
                    name = urn.rsplit("::", 1)[-1]
                    default = Goal(urn=urn, type=PLUGIN_PROVIDER, name=name, properties=inputs)
                    self.ledger.claim(default)
                    id_, _ = self._register_provider(default, self.ledger.take_old(default))
                    self._default_reference = f"{urn}::{id_}"
            goal.provider = self._default_reference
        if isinstance(providers, Providers) and goal.provider:
            providers.use(goal.urn, goal.provider)

    def _register_other(
        self, goal: Goal, old: ResourceState | None, news: Properties
    ) -> tuple[str, Properties]:
        ledger = self.ledger
        if old is not None and old.inputs == news:
            ledger.record(goal, "same", old.id, news, old.outputs)
            return old.id, old.outputs
        if ledger.preview:
            # A preview creates nothing: the new state holds the inputs, the id is not known.
            op = "update" if old else "create"
            return ledger.record(goal, op, old.id if old else "", news, news)
        id_, outputs = ledger.other_provider(goal)
        outputs = mark_secret_outputs(outputs, news, goal.additional_secret_outputs)
        ledger.record(goal, "update" if old else "create", id_, news, outputs)
        return id_, outputs

    def _register_dynamic(
        self, goal: Goal, old: ResourceState | None, news: Properties
    ) -> tuple[str, Properties]:
        ledger, replacements = self.ledger, self.replacements
        recreating = old is not None and old.urn in ledger.deleted()
        # ``continueStepsFromImport``: no olds when the resource is new, was deleted earlier in
        # this deployment (a delete-before-replace of a resource it depends on), or was only read
        # (``External``): Pulumi does not own its inputs. Those are checked as the program gave
        # them; the others against the old inputs, with the ignored changes undone.
        if old is None or recreating or old.external:
            inputs = replacements.check(goal, {}, goal.properties)
        else:
            inputs = replacements.check(goal, old.inputs, news)
        if old is None:
            return replacements.create(goal, inputs, "create")
        if recreating:
            # Case 1 "recreating": already deleted, so it is replaced without a diff.
            return replacements.create(goal, inputs, "replace")
        if old.external:
            # Case 2 "wasExternal": a resource the stack only read is now declared. Pulumi may
            # not touch the one it read, so it creates one in its place; the read one is
            # "deleted" at the end, which for an external resource only forgets it.
            created = replacements.create(goal, inputs, "replace")
            ledger.condemn(old)
            return created
        if old.pending_replacement:
            # ``continueStepsFromDiff``: deleted by an earlier, failed deployment's
            # delete-before-replace, so replaced whatever the diff says, with nothing to delete.
            return replacements.create(
                goal, replacements.check(goal, {}, goal.properties), "replace"
            )
        diff, triggered = replacements.decide(goal, old, inputs)
        ledger.note_diff(goal.urn, diff)
        if not diff.some:
            # ``SameStep.Apply`` (step.go) keeps the old id and outputs and the new inputs.
            return ledger.record(goal, "same", old.id, inputs, old.outputs)
        if not (diff.replaces or triggered):
            return self._update(goal, old, inputs)
        return replacements.replace(goal, old, diff)

    def _update(self, goal: Goal, old: ResourceState, inputs: Properties) -> tuple[str, Properties]:
        ledger = self.ledger
        if ledger.preview:
            return ledger.record(goal, "update", old.id, inputs, inputs)
        with ledger.steps.step("update", goal.urn, goal.type):
            outs = ledger.process.update(goal.urn, old.id, reveal(old.outputs), reveal(inputs))
        return ledger.record(goal, "update", old.id, inputs, annotate_secrets(outs, inputs))
