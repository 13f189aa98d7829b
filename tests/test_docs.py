"""Every shell and Python block of the README and the guides runs as written, against the
session's emulator, or says right above it why it does not.

The HTML comment on the line above a block says how it runs (readers see the reason in the text
around it):

- none: a Python block runs as a script, a shell block under ``bash -euo pipefail`` from the
  repository's root, with ``ALTOSTRATUS_API_URL`` and ``ALTOSTRATUS_API_KEY`` naming the emulator;
  a ``text`` block right after it is its output, of which every line without digits (ids, ports
  and times vary) must be printed;
- ``run as a Pulumi program``: the block is a project's ``__main__.py``, brought up and destroyed
  by ``altostratus.testing`` against the emulator; what it made is gone afterwards;
- ``run as pytest tests of <example>``: the page's blocks so marked are the files their first
  line names (``# tests/conftest.py``), beside that example's program, and ``pytest tests``
  passes;
- ``run after: <setup>``, alone or after one of the above: ``SETUPS`` below prepares the
  emulator or the folder first;
- ``run by <test module>``: that module runs the block (and reads it from the page);
- ``not run: <why>``: never run, and the reason must be given.

Substituted, and only this: the emulator's address and key (the session's emulator instead of
``altostratus emulator``'s ports); for pytest tests, the emulator's readiness delays shortened by a
fixture appended to a conftest that sets none, as the example's own conftest does; what a setup
gives (the ids of the records it made, in place of the ones a page shows).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import Stack
from tests.support.account import leftovers
from tests.support.doc_pages import PAGES, ROOT, Block, blocks

RUN = ("bash", "sh", "console", "python")
BLOCKS = [block for path in PAGES for block in blocks(path) if block.language in RUN]
OUTPUTS = {
    (block.page, block.line): block
    for path in PAGES
    for block in blocks(path)
    if block.language == "text"
}

FAST = """
import pytest


@pytest.fixture(scope="session")
def altostratus_emulator_settings():
    return {"lb_ready_seconds": 0.2, "objectstore_ready_seconds": 0.1}
"""
"""Appended to a documented conftest: balancers and stores ready at once, as in the example's."""

Setup = Callable[[Emulator, Path], dict[str, Any]]
"""Prepares a block's run: gets the emulator and an empty folder, answers what the run takes
(``config`` for a program, ``cwd`` for a shell block, ``names`` defined before a script, and
``ids``: the records' ids to write in place of the ones a page shows)."""


def records_looked_up(emulator: Emulator, folder: Path) -> dict[str, Any]:
    """What the lookups guide's program finds: a network, a firewall, a credential, a webhook."""
    url = "https://hooks.example.com/shared"
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        client.networks.create(label="shared", cidr_v4="10.61.0.0/24", region="FRA1")
        default = next(n for n in client.networks.list() if n.default)
        client.firewalls.create(name="edge", network_id=default.id, create_default_rules=False)
        client.object_store_credentials.create(name="ci")
        client.webhooks.create(url=url, events=["network.created"])
    return {"config": {"hookUrl": url}}


def records_read(emulator: Emulator, folder: Path) -> dict[str, Any]:
    """What the ``get`` guide's program reads: a network, its firewall and a rule of it."""
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        network = client.networks.create(label="shared", cidr_v4="10.61.0.0/24", region="FRA1")
        edge = client.firewalls.create(name="edge", network_id=network.id, region="FRA1")
        ssh = client.firewall_rules.create(edge.id, protocol="tcp", start_port=22, region="FRA1")
    return {"ids": {"6f1c0c3e-...": network.id, "8e0f...": edge.id, "b2a1...": ssh.id}}


def records_adopted(emulator: Emulator, folder: Path) -> dict[str, Any]:
    """What the adoption guide's program takes over: a network and its firewall."""
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        network = client.networks.create(label="app", cidr_v4="10.20.0.0/24")
        edge = client.firewalls.create(name="edge", network_id=network.id)
    return {"ids": {"6f1c0c3e-...": network.id, "8e0f...": edge.id}}


def store_outputs(emulator: Emulator, folder: Path) -> dict[str, Any]:
    """An object store's outputs, under the names the block uses."""
    project = pulumi_project(
        folder / "store", 'import altostratus as alto\nalto.ObjectStore("s")\n'
    )
    store = Stack(project, emulator=emulator).up().resources["ObjectStore:s"].outputs
    names = ("endpoint_url", "bucket_name", "access_key_id", "secret_access_key")
    return {"names": {name: store[name] for name in names}}


def bridged_export(emulator: Emulator, folder: Path) -> dict[str, Any]:
    """A bridged stack's export as ``state.json``, the one the migration tests read."""
    shutil.copy(ROOT / "tests/migrate/fixtures/pulumi-stack-export.json", folder / "state.json")
    return {"cwd": folder}


SETUPS: dict[str, Setup] = {
    "the records it looks up": records_looked_up,
    "the records it reads": records_read,
    "the records it adopts": records_adopted,
    "an object store's outputs as its names": store_outputs,
    "a bridged stack's export as state.json": bridged_export,
}


def pulumi_project(where: Path, program: str) -> Path:
    where.mkdir(parents=True)
    (where / "Pulumi.yaml").write_text("name: docs\nruntime: python\n")
    (where / "__main__.py").write_text(program)
    return where


def environment(emulator: Emulator, home: Path) -> dict[str, str]:
    home.mkdir(exist_ok=True)
    return {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(home),
        "PULUMI_HOME": str(home / ".pulumi"),
        "ALTOSTRATUS_API_URL": emulator.api_url,
        "ALTOSTRATUS_API_KEY": emulator.api_key,
    }


def run(command: list[str], cwd: Path, env: dict[str, str]) -> str:
    answer = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert answer.returncode == 0, answer.stdout + answer.stderr
    return answer.stdout + answer.stderr


def how(block: Block) -> tuple[str, str | None]:
    """How the block runs (``script``, ``program``, ``pytest tests of <example>``), and after
    which setup."""
    marker = block.marker or ""
    manner, _, setup = marker.partition("run after: ")
    manner = manner.removesuffix(", ").strip()
    if manner in ("", "run as a Pulumi program") or manner.startswith("run as pytest tests of "):
        return manner.removeprefix("run as ") or "script", setup or None
    raise AssertionError(f"{block.name}: unknown marker <!-- {marker} -->")


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name for b in BLOCKS])
def test_the_block_runs_as_written_or_says_why_not(
    block: Block, altostratus_fresh_emulator: Emulator, tmp_path: Path
) -> None:
    emulator = altostratus_fresh_emulator
    marker = block.marker or ""
    if marker.startswith("not run:"):
        assert marker.removeprefix("not run:").strip(), f"{block.name}: no reason given"
        return
    if marker.startswith("run by "):
        module = ROOT / marker.removeprefix("run by ")
        assert block.page in module.read_text(), f"{module} does not read {block.page}"
        return
    manner, setup = how(block)
    if setup is not None:
        assert setup in SETUPS, f"{block.name}: no setup named {setup!r}"
    given = SETUPS[setup](emulator, tmp_path) if setup else {}
    env = environment(emulator, tmp_path / "home")
    if manner == "a Pulumi program":
        assert block.language == "python", block.name
        held = leftovers(emulator)
        program = block.text
        for shown, made in given.get("ids", {}).items():
            program = program.replace(f'"{shown}"', repr(made))
        stack = Stack(pulumi_project(tmp_path / "program", program), emulator=emulator)
        for key, value in given.get("config", {}).items():
            stack.set_config(key, value)
        assert stack.up().resources, f"{block.name} declared nothing"
        stack.destroy()
        # What the program made is gone; what it adopted too (``pulumi destroy`` deletes it).
        after = leftovers(emulator)
        assert all(count <= held.get(kind, 0) for kind, count in after.items()), after
    elif manner.startswith("pytest tests of "):
        pytest_tests(block, manner.removeprefix("pytest tests of "), tmp_path, env)
    elif block.language == "python":
        names = "".join(f"{k} = {v!r}\n" for k, v in given.get("names", {}).items())
        (tmp_path / "block.py").write_text(names + block.text)
        run([sys.executable, "block.py"], tmp_path, env)
    else:
        script = shell_script(block)
        printed = run(["bash", "-euo", "pipefail", "-c", script], given.get("cwd", ROOT), env)
        expected = next_output(block)
        missing = [line for line in expected if line not in printed]
        assert not missing, f"{block.name} did not print {missing}:\n{printed}"


def shell_script(block: Block) -> str:
    if block.language != "console":
        return block.text
    return "\n".join(line[2:] for line in block.text.splitlines() if line.startswith("$ "))


def next_output(block: Block) -> list[str]:
    """The lines of the ``text`` block right after this one that hold no digits and no ``...``."""
    end = block.line + len(block.text.splitlines()) + 1
    for line in (end + 2, end + 3):
        if (output := OUTPUTS.get((block.page, line))) is not None:
            shown = [s.strip() for s in output.text.splitlines()]
            return [s for s in shown if s and "..." not in s and not re.search(r"\d", s)]
    return []


def pytest_tests(block: Block, example: str, folder: Path, env: dict[str, str]) -> None:
    """The page's blocks of this example, as its tests: all run with the first of them."""
    page = [b for b in BLOCKS if b.page == block.page and b.marker == block.marker]
    if block != page[0]:
        return
    project = folder / "project"
    project.mkdir()
    for name in ("Pulumi.yaml", "__main__.py"):
        shutil.copy(ROOT / example / name, project / name)
    for each in page:
        first, _ = each.text.split("\n", 1)
        where = project / first.removeprefix("# ").strip()
        where.parent.mkdir(parents=True, exist_ok=True)
        fast = where.name == "conftest.py" and "altostratus_emulator_settings" not in each.text
        where.write_text(each.text + (FAST if fast else ""))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", "."]
    printed = run([*command, "tests"], project, env)
    tests = sum(len(re.findall(r"^def test_", b.text, re.MULTILINE)) for b in page)
    assert f"{tests} passed" in printed, printed


def test_every_page_has_its_blocks_found() -> None:
    """The extraction sees the pages' blocks: a page with none would hide a broken fence."""
    pages = {block.page for block in BLOCKS}
    assert {"README.md", "docs/emulator.md", "docs/client.md", "docs/testing.md"} <= pages
