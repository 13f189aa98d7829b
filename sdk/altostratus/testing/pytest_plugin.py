"""A pytest plugin that serves the emulator to a test session.

Load it from a ``conftest.py``::

    pytest_plugins = ["altostratus.testing.pytest_plugin"]

``altostratus_emulator`` is one started ``Emulator`` for the session; ``altostratus_fresh_emulator``
resets it before a test. Override ``altostratus_emulator_settings`` (session scope) to pass other
``Emulator`` arguments, such as shorter provisioning delays, or ``{"seed": "tests/seed.yaml"}``:
then the session's emulator, and every fresh one (a reset returns to the seed), starts from the
accounts and resources the file declares. ``{"id_seed": 7}`` (or the environment variable
``ALTOSTRATUS_EMULATOR_ID_SEED``) makes the ids, keys and secrets the same in every run.

``altostratus_stack`` makes ``altostratus.testing.Stack`` objects against the freshly reset
emulator: ``altostratus_stack(program, **options)`` with a function or a project directory and
``Stack``'s options (``config``, ``secrets``, ``references``, ...). The provider processes are
shared by the session, and each stack is closed after its test.

``--altostratus-emulator=container`` (or the ini setting ``altostratus_emulator = container``)
serves the session's emulator from its image instead, through Testcontainers
(``altostratus.emulator.container``; the image ``--altostratus-emulator-image`` names, by default
``altostratus-emulator``); the in-process emulator is the default.

The session's first provider process is started when pytest is configured, so that its
interpreter and imports run while pytest collects the tests. It is stopped after the collection
when no collected test uses ``altostratus_stack`` or ``altostratus_provider_processes``;
otherwise the emulator and the runner, which the fixtures use, are imported then, before the
first test.
"""

from __future__ import annotations

import importlib
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

from altostratus.testing.runner import launch

if TYPE_CHECKING:
    from altostratus.emulator import Emulator
    from altostratus.testing import ProviderProcesses, Stack

#: The fixture that uses the provider processes (``altostratus_stack`` requests it).
PROCESSES_FIXTURE = "altostratus_provider_processes"
#: The fixture that serves the emulator (every other fixture of the plugin requests it).
EMULATOR_FIXTURE = "altostratus_emulator"
_EARLY = pytest.StashKey[subprocess.Popen[bytes]]()


EMULATORS = ("process", "container")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("altostratus")
    group.addoption(
        "--altostratus-emulator",
        choices=EMULATORS,
        default=None,
        help="serve the altostratus_emulator fixture in this process (the default) or from the "
        "emulator's image (container, through Testcontainers)",
    )
    group.addoption(
        "--altostratus-emulator-image",
        default=None,
        help="the emulator's image for --altostratus-emulator=container "
        "(default: altostratus-emulator)",
    )
    parser.addini("altostratus_emulator", "process or container (see --altostratus-emulator)")
    parser.addini("altostratus_emulator_image", "the emulator's image for container")


def emulator_mode(config: pytest.Config) -> tuple[str, str | None]:
    """Where the session's emulator runs, and the image (for ``container``). The plugin loaded
    by a conftest below the root declares no option: then the emulator runs in process."""
    mode = config.getoption("--altostratus-emulator", default=None) or _ini(
        config, "altostratus_emulator"
    )
    mode = str(mode or "process").strip()
    if mode not in EMULATORS:
        raise pytest.UsageError(f"altostratus_emulator = {mode!r}: give {' or '.join(EMULATORS)}")
    image = config.getoption("--altostratus-emulator-image", default=None) or _ini(
        config, "altostratus_emulator_image"
    )
    return mode, str(image or "").strip() or None


def _ini(config: pytest.Config, name: str) -> str:
    try:
        return str(config.getini(name) or "")
    except ValueError:  # not declared: the plugin was loaded after the options were read
        return ""


def pytest_configure(config: pytest.Config) -> None:
    """Start the first provider process now: it is ready by the first test that needs it."""
    emulator_mode(config)  # a wrong setting is a usage error before anything starts
    config.stash[_EARLY] = launch.launch()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Stop the early process when no collected test will use it; import what the fixtures of
    the collected tests will use."""
    used: set[str] = set()
    for item in session.items:
        used.update(getattr(item, "fixturenames", ()))
    if PROCESSES_FIXTURE not in used:
        _stop(session.config)
    if EMULATOR_FIXTURE in used:
        importlib.import_module("altostratus.emulator")
    if PROCESSES_FIXTURE in used:  # the runner, with the Pulumi SDK
        importlib.import_module("altostratus.testing._stack")


def pytest_unconfigure(config: pytest.Config) -> None:
    _stop(config)  # if never taken by the fixture (no test used it, or the collection failed)


def _stop(config: pytest.Config) -> None:
    early = config.stash.get(_EARLY, None)
    if early is not None:
        del config.stash[_EARLY]
        launch.stop(early)


@pytest.fixture(scope="session")
def altostratus_emulator_settings() -> dict[str, Any]:
    """Keyword arguments for the session's ``Emulator``: ``id_seed`` from
    ``ALTOSTRATUS_EMULATOR_ID_SEED`` when it is set (reproducible ids), else none."""
    text = os.environ.get("ALTOSTRATUS_EMULATOR_ID_SEED", "").strip()
    if not text:
        return {}
    try:
        return {"id_seed": int(text)}
    except ValueError:
        message = f"ALTOSTRATUS_EMULATOR_ID_SEED={text!r} is not an integer"
        raise pytest.UsageError(message) from None


@pytest.fixture(scope="session")
def altostratus_emulator(
    altostratus_emulator_settings: dict[str, Any], pytestconfig: pytest.Config
) -> Iterator[Emulator]:
    mode, image = emulator_mode(pytestconfig)
    if mode == "container":
        from altostratus.emulator.container import IMAGE, EmulatorContainer

        with EmulatorContainer(image or IMAGE, **altostratus_emulator_settings) as container:
            # It stands where an Emulator does: api_url, api_key, s3_url and the controls.
            yield cast("Emulator", container)
        return
    from altostratus.emulator import Emulator

    with Emulator(**altostratus_emulator_settings) as emulator:
        yield emulator


@pytest.fixture
def altostratus_fresh_emulator(altostratus_emulator: Emulator) -> Emulator:
    altostratus_emulator.reset()
    return altostratus_emulator


@pytest.fixture(scope="session")
def altostratus_provider_processes(request: pytest.FixtureRequest) -> Iterator[ProviderProcesses]:
    """Provider processes shared by the session's stacks: one per provider configuration (the
    ``altostratus:*`` keys), at most ``PROCESS_LIMIT`` at once (see ``ProviderProcesses``)."""
    from altostratus.testing import ProviderProcesses

    processes = ProviderProcesses()
    # The process started with the session, if the plugin was loaded by then; otherwise one
    # started now, requested before the emulator (``altostratus_stack``): both start at once.
    early = request.config.stash.get(_EARLY, None)
    if early is not None:
        del request.config.stash[_EARLY]
    processes.warm(early)
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
