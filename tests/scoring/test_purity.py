"""``scoring`` is pure: it imports the standard library and itself, nothing else (STYLE.md)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SCORING = Path(__file__).parents[2] / "scoring"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_scoring_imports_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"scoring", "__future__"}
    for path in sorted(SCORING.glob("*.py")):
        outside = imported_modules(path) - allowed
        assert not outside, f"{path.name} imports {sorted(outside)}"


def test_scoring_does_no_io() -> None:
    """No file, console or process access in code (doctests may print)."""
    for path in sorted(SCORING.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {node.func.id for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        assert not calls & {"open", "print", "input", "exec", "eval"}, path.name
        assert not imported_modules(path) & {"os", "subprocess", "pathlib", "io", "logging"}, \
            path.name
