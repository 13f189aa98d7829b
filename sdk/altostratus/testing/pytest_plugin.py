"""A pytest plugin that serves the emulator to a test session.

Load it from a ``conftest.py``::

    pytest_plugins = ["altostratus.testing.pytest_plugin"]

``altostratus_emulator`` is one started ``Emulator`` for the session; ``altostratus_fresh_emulator``
resets it before a test. Override ``altostratus_emulator_settings`` (session scope) to pass other
``Emulator`` arguments, such as shorter provisioning delays, or ``{"seed": "tests/seed.yaml"}``:
then the session's emulator, and every fresh one (a reset returns to the seed), starts from the
accounts and resources the file declares.

``altostratus_stack`` makes ``altostratus.testing.Stack`` objects against the freshly reset
emulator: ``altostratus_stack(program, **options)`` with a function or a project directory and
``Stack``'s options (``config``, ``secrets``, ``references``, ...). The provider processes are
shared by the session, and each stack is closed after its test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from altostratus.emulator import Emulator

if TYPE_CHECKING:
    from altostratus.testing import ProviderProcesses, Stack


@pytest.fixture(scope="session")
def altostratus_emulator_settings() -> dict[str, Any]:
    """Keyword arguments for the session's ``Emulator``."""
    return {}


@pytest.fixture(scope="session")
def altostratus_emulator(altostratus_emulator_settings: dict[str, Any]) -> Iterator[Emulator]:
    with Emulator(**altostratus_emulator_settings) as emulator:
        yield emulator


@pytest.fixture
def altostratus_fresh_emulator(altostratus_emulator: Emulator) -> Emulator:
    altostratus_emulator.reset()
    return altostratus_emulator


@pytest.fixture(scope="session")
def altostratus_provider_processes() -> Iterator[ProviderProcesses]:
    """Provider processes shared by the session's stacks (one per stack configuration)."""
    from altostratus.testing import ProviderProcesses

    processes = ProviderProcesses()
    processes.warm()  # requested before the emulator (``altostratus_stack``): both start at once
    yield processes
    processes.close()


@pytest.fixture
def altostratus_stack(
    altostratus_provider_processes: ProviderProcesses, altostratus_fresh_emulator: Emulator
) -> Iterator[Callable[..., Stack]]:
    """A factory of stacks against the freshly reset emulator."""
    from altostratus.testing import Stack

    made: list[Stack] = []

    def make(program: Callable[[], None] | str | Path, **options: Any) -> Stack:
        options.setdefault("emulator", altostratus_fresh_emulator)
        options.setdefault("processes", altostratus_provider_processes)
        stack = Stack(program, **options)
        made.append(stack)
        return stack

    yield make
    for stack in made:
        stack.close()
