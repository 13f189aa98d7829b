"""Test Pulumi programs offline: the real provider process, driven as the engine drives it.

See ``Stack``. Filled in below.
"""

from __future__ import annotations

from altostratus.testing._process import CheckFailed, CheckFailure, ProviderProcess
from altostratus.testing._program import ConfigValue, OutputValue
from altostratus.testing._properties import plain_secrets, reveal, secret
from altostratus.testing._results import (
    CheckFailureResult,
    DeploymentFailed,
    ResourceResult,
    Result,
)
from altostratus.testing._stack import ProviderProcesses, Stack
from altostratus.testing._state import ResourceState, Snapshot, StepEvent

__all__ = [
    "CheckFailed",
    "CheckFailure",
    "CheckFailureResult",
    "ConfigValue",
    "DeploymentFailed",
    "OutputValue",
    "ProviderProcess",
    "ProviderProcesses",
    "ResourceResult",
    "ResourceState",
    "Result",
    "Snapshot",
    "Stack",
    "StepEvent",
    "plain_secrets",
    "reveal",
    "secret",
]
