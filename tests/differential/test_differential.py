"""The runner and the real engine, program by program: the same operations, ids, outputs, leftovers.

Each program of ``programs.py`` runs through both; a difference fails here unless it is listed in
``KNOWN`` below, which the testing guide's "what it does not do" states for users.
"""

from __future__ import annotations

import pytest

from altostratus.emulator import Emulator

from .harness import differences, run
from .programs import SCENARIOS, Scenario

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

KNOWN: dict[str, list[str]] = {}
"""Differences the runner keeps on purpose, by program: each one in the testing guide too."""


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_the_runner_and_the_engine_agree(fresh_emulator: Emulator, scenario: Scenario) -> None:
    runner = run(scenario, "runner", fresh_emulator)
    engine = run(scenario, "pulumi", fresh_emulator)
    found = differences(runner, engine)
    assert found == KNOWN.get(scenario.name, []), "\n".join(found)
