"""The import graph of the packages: no cycle, and imports only down the layers.

The layers run scoring <- forms <- scanner <- samplegen <- pulka: a package imports only
those to its left (the sample generator sits above the scanner, which never imports it).
Every import that runs counts, at module level or inside a function; one under
``if TYPE_CHECKING:`` (annotations only, never executed) does not.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("scoring", "forms", "scanner", "samplegen", "pulka")


def module_name(path: Path) -> str:
    """``pulka/store/rows.py`` -> ``pulka.store.rows``; a package's ``__init__`` -> the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    """Every module of the layered packages, by name."""
    return {module_name(p): p for package in LAYERS for p in (ROOT / package).rglob("*.py")}


def run_time_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of the tree except those under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and \
                ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            yield from (n for other in node.orelse for n in (other, *run_time_nodes(other)))
            continue
        yield node
        yield from run_time_nodes(node)


def imported_names(path: Path, module: str) -> Iterator[str]:
    """Every module name an import statement in the file names (relative ones resolved)."""
    is_package = path.name == "__init__.py"
    for node in run_time_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")
                package = package if is_package else package[:-1]
                package = package[:len(package) - node.level + 1]
                base = ".".join([*package, base] if base else package)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    """Each project module and the project modules it imports."""
    modules = project_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {target for target in imported_names(path, name) if target in modules}
        # "from a.b import c" names a.b and a.b.c: keep only the deepest module named
        graph[name] = {t for t in targets if not any(o.startswith(t + ".") for o in targets)}
        graph[name].discard(name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layer(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def test_the_graph_is_read_whole() -> None:
    graph = import_graph()
    assert "pulka.store.refresh" in graph["pulka.store.database"]
    assert "scoring" in {t.split(".")[0] for t in graph["pulka.store.refresh"]}


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_imports_run_down_the_layers() -> None:
    against = sorted(f"{source} imports {target}" for source, targets in import_graph().items()
                     for target in targets if layer(target) > layer(source))
    assert against == []


def test_the_scanner_never_imports_the_sample_generator() -> None:
    graph = import_graph()
    assert not [(s, t) for s, ts in graph.items() for t in ts
                if s.startswith("scanner") and t.startswith("samplegen")]


def test_an_import_inside_a_function_counts_and_a_type_only_one_does_not() -> None:
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pulka.store\n"
              "def f():\n    from pulka.store import rows\n")
    names = [n.module for n in run_time_nodes(ast.parse(source))
             if isinstance(n, ast.ImportFrom)]
    assert names == ["typing", "pulka.store"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
