"""Other libraries' private members are used in one module of ours per library, its door, which
names the releases it was checked against; ``pyproject.toml`` bounds each such library above.

A private member is an underscored attribute (``server._connections``), an underscored name
imported from another package, or an underscored name given to ``getattr``, ``setattr``,
``hasattr`` or ``delattr``, that the package itself does not define, or that a door lists (a
door may define one itself: an override); dunders, and the few underscored names the standard
library documents as public (``os._exit``), are not.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import altostratus

PACKAGE = Path(altostratus.__file__).parent
ROOT = PACKAGE.parents[1]

#: Each door, by its path in the package: the libraries whose private members it uses, and those
#: members.
DOORS: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "emulator/serving/cheroot_internals.py": (
        ("cheroot",),
        frozenset(
            {"_connections", "_selector", "_stop_requested", "_serving"}
            | {"_queue", "_threads", "_spawn_worker"}
        ),
    ),
    "emulator/reading/werkzeug_internals.py": (("werkzeug",), frozenset({"_compile_builder"})),
    "emulator/s3/store.py": (
        ("moto",),
        frozenset({"_version_id", "_is_versioned", "_etag", "_expiry", "_metadata"}),
    ),
    "client/_deadline.py": (
        ("httpx", "httpcore"),
        frozenset({"_transport", "_mounts", "_pool", "_network_backend"}),
    ),
    "providers/_threads.py": (
        ("concurrent.futures",),
        frozenset(
            {"_max_workers", "_threads", "_work_queue", "_idle_semaphore", "_shutdown_lock"}
            | {"_shutdown", "_adjust_thread_count"}
        ),
    ),
}
#: Every member a door lists: used on anything but ``self`` or ``cls``, it is another library's.
LISTED = frozenset(member for _, members in DOORS.values() for member in members)
#: Underscored names that the standard library documents as public.
DOCUMENTED = frozenset(
    {"_exit", "_getframe", "_asdict", "_replace", "_fields", "_make", "_field_defaults"}
)
_ATTRIBUTE_CALLS = ("getattr", "setattr", "hasattr", "delattr")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in DOCUMENTED


def defined_names(trees: list[ast.Module]) -> set[str]:
    """Every name the package defines: functions, classes, parameters, names assigned, and
    attributes set on ``self`` or ``cls``."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            ):
                names.add(node.attr)
    return names


def foreign_members(tree: ast.Module, ours: set[str]) -> list[tuple[int, str, str]]:
    """The private members of other libraries that ``tree`` uses: (line, member, the code)."""
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            on_own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if node.attr not in ours or (node.attr in LISTED and not on_own):
                found.append((node.lineno, node.attr, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.split(".")[0] != "altostratus":
                found.extend(
                    (node.lineno, alias.name, f"{node.module}.{alias.name}")
                    for alias in node.names
                    if _private(alias.name)
                )
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _ATTRIBUTE_CALLS
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
            and (node.args[1].value not in ours or node.args[1].value in LISTED)
        ):
            found.append((node.lineno, node.args[1].value, ast.unparse(node)))
    return sorted(found)


def _package() -> dict[str, ast.Module]:
    return {
        path.relative_to(PACKAGE).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_other_libraries_private_members_are_used_only_in_their_doors() -> None:
    modules = _package()
    ours = defined_names(list(modules.values()))
    outside = [
        f"{path}:{line}: {code}"
        for path, tree in modules.items()
        if path not in DOORS
        for line, _, code in foreign_members(tree, ours)
    ]
    assert outside == []


def test_each_door_uses_the_members_it_lists_and_names_the_releases_checked() -> None:
    modules = _package()
    ours = defined_names(list(modules.values()))
    for path, (libraries, members) in DOORS.items():
        used = {member for _, member, _ in foreign_members(modules[path], ours)}
        assert used == members, path
        doc = ast.get_docstring(modules[path]) or ""
        assert "one module of the package" in doc, path
        checked = re.search(r"[Cc]hecked\s+against\s[^\d]{0,60}\d+\.\d+", doc)
        assert checked, f"{path} names no release it was checked against"
        for library in libraries:
            assert library.lower() in doc.lower(), f"{path} does not name {library}"


def test_each_library_a_door_reaches_into_is_bounded_above() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for library in {lib for libs, _ in DOORS.values() for lib in libs} - {"concurrent.futures"}:
        named = re.findall(rf'^\s*"({library}\b[^"]*)"', pyproject, re.IGNORECASE | re.MULTILINE)
        assert named, f"{library} is not a dependency"
        assert all("<" in requirement for requirement in named), named


def test_a_private_member_of_another_library_is_found_wherever_it_is_used() -> None:
    code = (
        "import os\n"
        "from cheroot.server import _private\n"
        "from altostratus.providers import _threads\n"
        "class Ours:\n"
        "    def __init__(self):\n"
        "        self._mine = 1\n"
        "    def use(self, server, pool):\n"
        "        server._connections._selector.register(self._mine)\n"
        "        getattr(pool, '_spawn_worker')\n"
        "        pool._threads.append(self._mine)\n"
        "        hasattr(self, '_mine')\n"
        "        os._exit(0)\n"
        "        return self.__class__\n"
    )
    tree = ast.parse(code)
    assert foreign_members(tree, defined_names([tree])) == [
        (2, "_private", "cheroot.server._private"),
        (8, "_connections", "server._connections"),
        (8, "_selector", "server._connections._selector"),
        (9, "_spawn_worker", "getattr(pool, '_spawn_worker')"),
        (10, "_threads", "pool._threads"),
    ]
