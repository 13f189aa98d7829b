"""The suite's own structure: it is the package ``tests``, its shared helpers are imported by
their full names (``tests.support.<module>``), nothing changes the import path, and each fixture is
defined once, so that a fixture's name means one thing wherever a test asks for it."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def python_files(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*.py") if "__pycache__" not in path.parts)


def _is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return ast.unparse(target) in ("pytest.fixture", "fixture")


def fixture_definitions(root: Path) -> dict[str, list[str]]:
    """Each fixture name defined under ``root`` (``@pytest.fixture``, or its ``name=``), with
    where: ``path:line``."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in python_files(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for decorator in filter(_is_fixture, node.decorator_list):
                name = node.name
                if isinstance(decorator, ast.Call):
                    for keyword in decorator.keywords:
                        if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                            name = str(keyword.value.value)
                found[name].append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return found


def bare_imports(root: Path) -> list[str]:
    """Imports, under ``root``, of a module of ``root`` by its bare name (``import engine``,
    ``from account import ...``): they work only while pytest puts a folder on the import path."""
    own = {path.stem for path in python_files(root)} | {
        path.name for path in root.rglob("*") if path.is_dir()
    }
    own -= {"__init__", "__main__", root.name}
    found = []
    for path in python_files(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                if name.split(".")[0] in own:
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno}: {name}")
    return found


def path_hacks(root: Path) -> list[str]:
    """Every use of ``sys``'s ``path`` under ``root``."""
    found = []
    for path in python_files(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "path"
                and isinstance(node.value, ast.Name)
                and node.value.id == "sys"
            ):
                found.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return found


def loose_folders(root: Path) -> list[str]:
    """Folders holding a test module or a conftest without an ``__init__.py``."""
    folders = {path.parent for path in root.rglob("test_*.py")}
    folders |= {path.parent for path in root.rglob("conftest.py")}
    return sorted(
        str(folder.relative_to(root.parent))
        for folder in folders
        if "__pycache__" not in folder.parts and not (folder / "__init__.py").is_file()
    )


def test_each_fixture_name_is_defined_once() -> None:
    twice = {name: places for name, places in fixture_definitions(TESTS).items() if len(places) > 1}
    assert not twice, f"fixtures defined more than once: {twice}"


def test_helpers_are_imported_by_their_full_names() -> None:
    assert bare_imports(TESTS) == []


def test_nothing_changes_the_import_path() -> None:
    assert path_hacks(TESTS) == []


def test_every_folder_of_tests_is_a_package() -> None:
    assert loose_folders(TESTS) == []


# The checks above find what they look for: each on a small suite that breaks its rule.


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_fixture_defined_in_two_conftests_or_by_name_is_found(tmp_path: Path) -> None:
    suite = write(
        tmp_path / "tests",
        {
            "a/conftest.py": "import pytest\n\n@pytest.fixture\ndef api(): ...\n",
            "b/conftest.py": "import pytest\n\n@pytest.fixture(scope='module')\ndef api(): ...\n",
            "c/test_c.py": "from pytest import fixture\n\n@fixture(name='api')\ndef other(): ...\n"
            "\n\n@fixture\ndef alone(): ...\n",
        },
    )
    found = fixture_definitions(suite)
    assert found["api"] == ["tests/a/conftest.py:4", "tests/b/conftest.py:4", "tests/c/test_c.py:4"]
    assert found["alone"] == ["tests/c/test_c.py:8"]


def test_a_helper_imported_by_its_bare_name_is_found(tmp_path: Path) -> None:
    suite = write(
        tmp_path / "tests",
        {
            "support/engine.py": "",
            "emulator/served_s3.py": "",
            "test_a.py": "import os\nfrom engine import Engine\nfrom tests.support import engine\n",
            "emulator/test_b.py": "import emulator.served_s3\nfrom .served_s3 import S3\n",
        },
    )
    assert bare_imports(suite) == [
        "tests/emulator/test_b.py:1: emulator.served_s3",
        "tests/test_a.py:2: engine",
    ]


def test_a_path_hack_and_a_loose_folder_are_found(tmp_path: Path) -> None:
    suite = write(
        tmp_path / "tests",
        {
            "__init__.py": "",
            "a/__init__.py": "",
            "a/test_a.py": "import sys\n\nsys" + ".path.insert(0, 'x')\n",
            "b/conftest.py": "",
            "data/program.py": "",
        },
    )
    assert path_hacks(suite) == ["tests/a/test_a.py:3"]
    assert loose_folders(suite) == ["tests/b"]
