"""Test Pulumi programs offline: the real provider process, driven as the engine drives it.

See ``Stack``. The block below is the one list of the public names, loaded on first use (see
``altostratus._exports``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from altostratus._exports import lazy_exports

if TYPE_CHECKING:
    from altostratus.testing._process import CheckFailed as CheckFailed
    from altostratus.testing._process import CheckFailure as CheckFailure
    from altostratus.testing._process import ProviderProcess as ProviderProcess
    from altostratus.testing._program import ConfigValue as ConfigValue
    from altostratus.testing._program import OutputValue as OutputValue
    from altostratus.testing._properties import plain_secrets as plain_secrets
    from altostratus.testing._properties import reveal as reveal
    from altostratus.testing._properties import secret as secret
    from altostratus.testing._results import CheckFailureResult as CheckFailureResult
    from altostratus.testing._results import DeploymentFailed as DeploymentFailed
    from altostratus.testing._results import ResourceResult as ResourceResult
    from altostratus.testing._results import Result as Result
    from altostratus.testing._stack import ProviderProcesses as ProviderProcesses
    from altostratus.testing._stack import Stack as Stack
    from altostratus.testing._state import ResourceState as ResourceState
    from altostratus.testing._state import Snapshot as Snapshot
    from altostratus.testing._state import StepEvent as StepEvent
else:
    __all__, __getattr__, __dir__ = lazy_exports(globals())
