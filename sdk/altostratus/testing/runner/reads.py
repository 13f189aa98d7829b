"""Reading existing resources: ``ResourceOptions(id=...)`` and ``<Resource>.get`` (the engine's
read step), and ``import_`` (its import step)."""

from __future__ import annotations

from altostratus.testing._properties import Properties, annotate_secrets, is_unknown, reveal
from altostratus.testing._results import PLUGIN, front_of
from altostratus.testing.runner.ledger import Ledger
from altostratus.testing.runner.state import Goal, ResourceState
from altostratus.testing.runner.steps import ResourceFailed


class Reads:
    """The deployment's read and import steps, over its ``ledger``."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def read(self, goal: Goal, id_: str) -> tuple[str, Properties]:
        """``ReadStep.Apply`` (step.go) reads with the given properties as both inputs and
        state, and fails when nothing has that id. An id not known yet (a preview) is not read:
        the resource has no outputs yet."""
        ledger = self.ledger
        ledger.steps.check_canceled(goal.urn)
        ledger.claim(goal)
        props = reveal(goal.properties)
        found, outs = id_, Properties()
        if not is_unknown(id_):
            with ledger.steps.step("read", goal.urn, goal.type):
                found, outs, _ = ledger.process.read(goal.urn, id_, props, props)
                if not found:
                    raise ResourceFailed(goal.urn, "read", f"resource '{id_}' does not exist")
        old = ledger.old_state(goal.urn)
        if old is not None and not old.external and old.id != id_:
            # ``GenerateReadSteps``: reading, under the URN of a resource the stack manages,
            # another resource replaces it: the managed one is deleted at the end of the
            # deployment. Reading the same id only relinquishes it (no delete).
            ledger.condemn(old)
        outputs = annotate_secrets(outs, goal.properties)
        return ledger.record(goal, "read", found, goal.properties, outputs, external=True)

    @staticmethod
    def imports(goal: Goal, old: ResourceState | None) -> bool:
        """``continueStepsFromRefresh``: an ``import_`` id imports when there is no old state,
        the old one was only read, or it was imported under (or has) another id."""
        if not goal.import_id:
            return False
        if old is None or old.external:
            return True
        return (old.import_id or old.id) != goal.import_id

    def import_(self, goal: Goal) -> tuple[str, Properties]:
        if front_of(goal.type) == PLUGIN:
            message = (
                "ResourceOptions(import_=...) of a provider plugin resource is not run by "
                'altostratus.testing: run the stack with engine="pulumi"'
            )
            raise ResourceFailed(goal.urn, "import", message, started=False)
        # ``ImportStep.Apply`` (step.go) reads the resource with no inputs and no state, so the
        # dynamic provider process cannot find ``__provider`` and fails (``KeyError``).
        with self.ledger.steps.step("import", goal.urn, goal.type):
            self.ledger.process.read(goal.urn, goal.import_id, {}, {})
        raise ResourceFailed(goal.urn, "import", "import read no provider")  # pragma: no cover
