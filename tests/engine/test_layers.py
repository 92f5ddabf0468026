"""The engine's modules import one another without a circle (function-level imports included).

Run as a script, it prints the import graph and its cycles: `python tests/engine/test_layers.py`.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _targets(node: ast.Import | ast.ImportFrom, package: str, modules: set[str]) -> set[str]:
    """The engine modules one import statement loads ("__init__" for the package itself)."""
    if isinstance(node, ast.Import):
        dotted = [a.name.split(".") for a in node.names]
        return {p[1] if len(p) > 1 else "__init__" for p in dotted if p[0] == package}
    base = [package] if node.level else (node.module or "").split(".")
    if node.level and node.module:
        base += node.module.split(".")
    if base[0] != package:
        return set()
    if len(base) > 1:
        return {base[1]}
    return {a.name if a.name in modules else "__init__" for a in node.names}


def import_graph(folder: Path = ENGINE) -> dict[str, set[str]]:
    """Module -> the engine modules it imports anywhere in its code, top or function level."""
    modules = {p.stem for p in folder.glob("*.py")}
    graph = {}
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                found |= _targets(node, folder.name, modules)
        graph[path.stem] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: groups of modules that reach one another, and self-imports."""
    reach = {m: _reachable(graph, m) for m in graph}
    groups = {
        tuple(sorted(m2 for m2 in reach[m] if m in reach[m2])) for m in graph if m in reach[m]
    }
    return sorted(list(g) for g in groups)


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo += graph.get(module, ())
    return seen


def test_the_engine_has_no_import_circle():
    assert cycles(import_graph()) == []


def test_the_state_knows_neither_its_stored_form_nor_the_rules():
    assert not import_graph()["state"] & {"codec", "turns", "views", "policies"}


def test_no_import_hides_inside_a_function():
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(n) for n in tree.body}
        lazy = [
            n.lineno
            for n in ast.walk(tree)
            if isinstance(n, ast.Import | ast.ImportFrom) and id(n) not in top
        ]
        assert lazy == [], f"{path.name}: function-level import at line(s) {lazy}"


def test_the_cycle_finder_sees_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}}
    assert cycles(graph) == [["a", "b", "c"], ["d"]]


if __name__ == "__main__":
    graph = import_graph()
    for module, imported in graph.items():
        print(f"{module:12} -> {', '.join(sorted(imported)) or '(nothing in engine)'}")
    found = cycles(graph)
    print(
        f"{len(graph)} modules, {sum(map(len, graph.values()))} imports (top and function level)"
    )
    print("cycles:", found or "none")
