"""scanner.words and scoring.reasons: every code the source says has its template, every
template is said somewhere, and a template's placeholders are the parameters given."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scanner import words
from scoring import reasons

ROOT = Path(__file__).parents[2]
SAID = re.compile(r"""\bsaid\(\s*["']([a-z_0-9]+)["']""")
LITERAL = re.compile(r"""["']([a-z_0-9]+)["']""")


def sources(package: str, table: Path) -> str:
    """A package's Python source, but for the module of its templates."""
    return "\n".join(path.read_text(encoding="utf-8")
                     for path in sorted((ROOT / package).rglob("*.py")) if path != table)


@pytest.mark.parametrize(("package", "module"), [("scanner", words), ("scoring", reasons)])
def test_every_code_said_has_a_template_and_every_template_is_said(package: str,
                                                                   module: object) -> None:
    table: dict[str, str] = module.WORDS  # type: ignore[attr-defined]
    text = sources(package, Path(module.__file__))  # type: ignore[attr-defined]
    assert set(SAID.findall(text)) - set(table) == set()
    functions = Path(module.__file__).read_text(  # type: ignore[attr-defined]
        encoding="utf-8").split("\ndef ", 1)[1]  # the module's own functions, after the table
    used = set(LITERAL.findall(text)) | set(LITERAL.findall(functions))
    assert set(table) - used == set()


def test_a_template_fills_from_its_parameters() -> None:
    text = words.said("page_twice", sheet="S-1", page=2, first="a.jpg", second="b.jpg")
    assert text == "sheet S-1: page 2 given twice (a.jpg and b.jpg); reading the first"
    with pytest.raises(KeyError):
        words.said("page_twice", sheet="S-1")
