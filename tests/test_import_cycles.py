"""No import circle in the project's packages: every import of engine/, rooms/, widgets/ and
serving/ (at the top of a module and inside its functions alike; not those under
`if TYPE_CHECKING:`, which never run) is an edge of a graph, and the graph has no cycle.

An import inside a function hides a circle from Python's loader but not from a reader: the two
modules still need each other. An edge goes to the module named (`from a.b import c` goes to
`a.b.c` when that is a module, else to `a.b`).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "rooms", "widgets", "serving")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))
            if "__pycache__" not in p.parts}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports, anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[:len(parent) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                strong(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(out)


def test_the_graph_sees_imports_inside_functions_and_finds_a_circle(tmp_path: Path) -> None:
    """Positive control: a circle made by an import inside a function is found, and one under
    TYPE_CHECKING is not an edge."""
    modules = {"p.a": Path("a.py"), "p.b": Path("b.py"), "p.c": Path("c.py")}
    a = ast.parse("from p import b\n")
    b = ast.parse("def f():\n    from p.a import thing\n")
    c = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p import a\n")
    sources = {"p.a": a, "p.b": b, "p.c": c}
    graph = {}
    for name, tree in sources.items():
        path = tmp_path / f"{name}.py"
        path.write_text(ast.unparse(tree))
        graph[name] = imports_of(name, path, modules)
    assert graph == {"p.a": {"p.b"}, "p.b": {"p.a"}, "p.c": set()}
    assert cycles(graph) == [["p.a", "p.b"]]


def test_every_package_is_walked() -> None:
    graph = import_graph()
    for expected in ("engine.saves", "rooms.store", "widgets.words", "serving.kernels",
                     "widgets.together.seat"):
        assert expected in graph
    assert "engine.errors" in graph["rooms.database"]


def test_no_import_circle() -> None:
    found = cycles(import_graph())
    assert found == [], "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_module_under_an_old_name() -> None:
    """Each module has one name: no module that only re-exports another one's."""
    graph = import_graph()
    for old in ("widgets.hit_me_table", "widgets.flapjack_table", "widgets.render_flapjack",
                "widgets.flapjack.hand", "widgets.together.store", "widgets.together.codes",
                "widgets.together.games", "widgets.together.names", "widgets.together.listen"):
        assert old not in graph
        assert not any(old in imports for imports in graph.values()), old
