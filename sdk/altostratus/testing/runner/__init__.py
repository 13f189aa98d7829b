"""The runner: the engine's stand-in, which plays ``pulumi preview``, ``up``, ``refresh`` and
``destroy`` in this process for ``Stack(engine="runner")``.

What is where: ``deployment`` (the step generator, ``Deployment``) with its phases
``replacements``, ``reads`` and ``deletes`` over one ``ledger``; ``operations`` (refresh and
destroy); ``monitor`` (the resource monitor the program talks to) with ``options``,
``transforms`` and ``aliases``; ``paths`` (property paths); ``program`` (the program run as the
language host runs it); ``state`` and ``steps``; ``report`` (what it did, as a ``Result``); the
provider processes: ``fronts`` (which process serves a resource: the dynamic provider's, or the
provider plugin's of its provider instance), ``process``, ``processes``, ``launch``,
``provider_main`` and ``engine_log`` (their progress lines).

This wing is not public API: ``altostratus.testing`` is. The names below are the seam the
package's own tests reach the runner through, loaded on first use (see
``altostratus._exports``); the wing's modules may move behind it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from altostratus._exports import lazy_exports

if TYPE_CHECKING:
    from altostratus.testing._properties import from_struct as from_struct
    from altostratus.testing._properties import is_secret as is_secret
    from altostratus.testing._properties import reveal as reveal
    from altostratus.testing._properties import to_struct as to_struct
    from altostratus.testing._results import StepEvent as StepEvent
    from altostratus.testing._results import resource_key as resource_key
    from altostratus.testing._results import urn_type as urn_type
    from altostratus.testing.runner.deployment import Deployment as Deployment
    from altostratus.testing.runner.launch import COMMAND as COMMAND
    from altostratus.testing.runner.operations import destroy as destroy
    from altostratus.testing.runner.operations import refresh as refresh
    from altostratus.testing.runner.operations import refresh_one as refresh_one
    from altostratus.testing.runner.paths import contains as contains
    from altostratus.testing.runner.paths import ignore_changes as ignore_changes
    from altostratus.testing.runner.paths import parse as parse
    from altostratus.testing.runner.paths import replace_on_changes as replace_on_changes
    from altostratus.testing.runner.process import PROVIDER_KEY as PROVIDER_KEY
    from altostratus.testing.runner.process import CheckFailed as CheckFailed
    from altostratus.testing.runner.process import CheckFailure as CheckFailure
    from altostratus.testing.runner.process import DiffAnswer as DiffAnswer
    from altostratus.testing.runner.process import ProviderProcess as ProviderProcess
    from altostratus.testing.runner.report import resource_result as resource_result
    from altostratus.testing.runner.state import Goal as Goal
    from altostratus.testing.runner.state import ResourceState as ResourceState
    from altostratus.testing.runner.state import Snapshot as Snapshot
    from altostratus.testing.runner.steps import Canceled as Canceled
    from altostratus.testing.runner.steps import ResourceFailed as ResourceFailed
    from altostratus.testing.runner.steps import Steps as Steps
else:
    __all__, __getattr__, __dir__ = lazy_exports(globals())
