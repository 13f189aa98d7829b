"""The package's modules import one way: no module reaches itself through the modules it imports.

Every import statement counts, wherever it stands: at module level, inside a function (imported
late, to keep an extra or Pulumi out of a light import), under ``if TYPE_CHECKING:`` (for hints
only), and in a package's list of public names (loaded on first use). One kind is left out: a
module naming, for its hints only, a type of a package it belongs to (the stores name ``State``,
which composes them).

``altostratus.testing`` stands in two wings over the records they share: the runner (the
engine's stand-in) and the real engine's adapter import neither each other nor ``Stack`` above
them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import altostratus

PACKAGE = Path(altostratus.__file__).parent


def _name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(
        ".__init__"
    )


def _type_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements inside ``if TYPE_CHECKING:`` blocks."""
    found: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            found.update(
                n
                for s in node.body
                for n in ast.walk(s)
                if isinstance(n, (ast.Import, ast.ImportFrom))
            )
    return found


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The names an import statement loads, as dotted module paths (a module's attribute is
    named as ``module.attribute``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = module.split(".")
        parts = parts if is_package else parts[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join([*parts, *([base] if base else [])])
    return [f"{base}.{alias.name}" for alias in node.names]


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports."""
    paths = {_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        type_only = _type_only(tree)
        edges: set[str] = set()
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for name in _imported(node, module, path.name == "__init__.py"):
                while name and name not in paths:
                    name = name.rpartition(".")[0]
                own_package = module.startswith(name + ".")
                if name and name != module and not (own_package and node in type_only):
                    edges.add(name)
        graph[module] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _described(group: list[str], graph: dict[str, set[str]]) -> str:
    members = set(group)
    return "; ".join(f"{a} -> {b}" for a in group for b in sorted(graph[a] & members))


def test_no_module_of_the_package_imports_itself_through_others() -> None:
    graph = import_graph()
    assert [_described(group, graph) for group in cycles(graph)] == []


def test_the_graph_sees_imports_in_functions_hints_and_public_name_lists() -> None:
    graph = import_graph()
    assert "altostratus.cli._deploy" in graph["altostratus.cli._run"]  # inside a function
    assert "altostratus.client" in graph["altostratus.providers._base"]  # hints only
    assert "altostratus.providers" in graph["altostratus"]  # the public names
    assert "altostratus.emulator.state" not in graph["altostratus.emulator.state.base"]


def test_a_cycle_is_found_whatever_its_length() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


TESTING = "altostratus.testing"
WINGS = (f"{TESTING}.runner", f"{TESTING}.real")
"""The engine's stand-in and the real engine's adapter: neither imports the other."""
SHARED = frozenset({f"{TESTING}._results", f"{TESTING}._properties", f"{TESTING}._project"})
"""What both wings speak (results, property values, the project and its configuration), below
them: it imports neither, nor ``Stack``, the public face or the pytest plugin above them."""


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def wing_breaches(graph: dict[str, set[str]]) -> list[str]:
    """The imports of ``altostratus.testing`` that break the wings' rules: a wing importing
    anything of ``testing`` but itself and the shared records, or a shared record importing
    anything of ``testing`` but the other shared records."""
    found = []
    for module in sorted(graph):
        wing = next((w for w in WINGS if _within(module, w)), None)
        if wing is None and module not in SHARED:
            continue
        for name in sorted(graph[module]):
            allowed = name in SHARED or (wing is not None and _within(name, wing))
            if _within(name, TESTING) and not allowed:
                found.append(f"{module} -> {name}")
    return found


def test_the_runners_wings_import_only_themselves_and_the_records_they_share() -> None:
    assert wing_breaches(import_graph()) == []


def test_a_wing_importing_the_other_or_what_stands_above_it_is_found() -> None:
    graph = {
        f"{TESTING}.runner.monitor": {f"{TESTING}.real.events", f"{TESTING}._results"},
        f"{TESTING}.real.automation": {f"{TESTING}._stack", "altostratus._pulumi_format"},
        f"{TESTING}._results": {f"{TESTING}.runner.state"},
        f"{TESTING}._stack": {f"{TESTING}.runner.monitor", f"{TESTING}.real.automation"},
    }
    assert wing_breaches(graph) == [
        f"{TESTING}._results -> {TESTING}.runner.state",
        f"{TESTING}.real.automation -> {TESTING}._stack",
        f"{TESTING}.runner.monitor -> {TESTING}.real.events",
    ]


def test_an_emulator_serving_no_object_store_never_imports_moto() -> None:
    program = (
        "import sys\n"
        "from altostratus.emulator import Emulator\n"
        "with Emulator() as emulator:\n"
        "    emulator.set_quota(network_count=5)\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'moto'], 'moto imported'\n"
    )
    subprocess.run([sys.executable, "-c", program], check=True, timeout=120)


EMULATOR = "altostratus.emulator"


def _wing(module: str) -> str:
    """The emulator's wing a module belongs to: its top-level module, or its folder."""
    return ".".join(module.split(".")[:3])


def _emulator_reach(graph: dict[str, set[str]], start: str) -> set[str]:
    """The emulator's modules that the modules of the wing ``start`` import, directly or not."""
    seen: set[str] = set()
    todo = [m for m in graph if _wing(m) == start]
    assert todo, f"no wing {start}"
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt.startswith(EMULATOR + ".") and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def wing_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The emulator's import graph with each wing drawn as one node."""
    wings: dict[str, set[str]] = {}
    for module, imported in graph.items():
        if module.startswith(EMULATOR + "."):
            wings.setdefault(_wing(module), set()).update(
                _wing(name) for name in imported if name.startswith(EMULATOR + ".")
            )
    return {wing: imported - {wing} for wing, imported in wings.items()}


def test_the_emulator_keeps_at_most_nine_modules_at_its_top_level() -> None:
    top = sorted(path.name for path in (PACKAGE / "emulator").glob("*.py"))
    assert len(top) <= 9, top


def test_no_wing_of_the_emulator_reaches_itself_through_another() -> None:
    wings = wing_graph(import_graph())
    assert {f"{EMULATOR}.serving", f"{EMULATOR}.reading", f"{EMULATOR}.state"} <= set(wings)
    assert [_described(group, wings) for group in cycles(wings)] == []


def test_serving_knows_nothing_of_the_state_the_routes_or_how_a_request_is_read() -> None:
    reached = {_wing(m) for m in _emulator_reach(import_graph(), f"{EMULATOR}.serving")}
    forbidden = {f"{EMULATOR}.{wing}" for wing in ("state", "routes", "reading", "app")}
    assert reached & forbidden == set()


def test_reading_a_request_knows_nothing_of_the_state() -> None:
    reached = {_wing(m) for m in _emulator_reach(import_graph(), f"{EMULATOR}.reading")}
    forbidden = {f"{EMULATOR}.{wing}" for wing in ("state", "routes", "persistence", "app")}
    assert reached & forbidden == set()


def test_a_wing_that_reaches_itself_through_another_is_found() -> None:
    graph = {
        f"{EMULATOR}.reading.parts": {f"{EMULATOR}.state.base"},
        f"{EMULATOR}.state.base": {f"{EMULATOR}.state.table"},
        f"{EMULATOR}.state.table": {f"{EMULATOR}.reading.bodies"},
        f"{EMULATOR}.reading.bodies": set(),
    }
    wings = wing_graph(graph)
    assert cycles(wings) == [[f"{EMULATOR}.reading", f"{EMULATOR}.state"]]
    assert _emulator_reach(graph, f"{EMULATOR}.reading") == {
        f"{EMULATOR}.state.base",
        f"{EMULATOR}.state.table",
        f"{EMULATOR}.reading.bodies",
    }
