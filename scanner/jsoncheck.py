"""Typed reading of a JSON document that crossed a boundary: each value checked where it is read.

Every checker takes the value and ``where`` it stands (``fields[3].rect_mm[1]``) and returns
the value with its type, or raises :class:`DocumentError` naming that field. Numbers are
bounded (:data:`MAX_JSON_INT`, finite floats) and nesting is limited (:data:`MAX_JSON_DEPTH`),
so nothing read here overflows an SQLite INTEGER or a recursion later.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, TypeVar

from scoring.exitcode import PulkaError
from scoring.said import Said

MAX_JSON_INT = 2**53
"""Largest whole number accepted, in absolute value (what a JSON double holds exactly)."""
MAX_JSON_DEPTH = 32
"""Deepest nesting of objects and lists accepted inside a free-form value."""
MAX_TEXT = 10_000
"""Longest string accepted, in characters."""
CODE = re.compile(r"[a-z][a-z0-9_]{0,39}")
"""What a sentence's code looks like (:mod:`scanner.words`)."""

T = TypeVar("T")


class DocumentError(PulkaError, ValueError):
    """A document whose field has the wrong type or value: ``where`` names the field."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        super().__init__(f"field {where}: {problem}")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def obj(value: Any, where: str) -> dict[str, Any]:
    """An object."""
    if not isinstance(value, dict):
        raise DocumentError(where, f"expected an object, got {_shown(value)}")
    return value


def arr(value: Any, where: str) -> list[Any]:
    """A list."""
    if not isinstance(value, list | tuple):
        raise DocumentError(where, f"expected a list, got {_shown(value)}")
    return list(value)


def text(value: Any, where: str) -> str:
    """A string of at most :data:`MAX_TEXT` characters."""
    if not isinstance(value, str):
        raise DocumentError(where, f"expected a string, got {_shown(value)}")
    if len(value) > MAX_TEXT or "\0" in value:
        raise DocumentError(where, f"a string of {len(value)} characters or with a NUL")
    return value


def integer(value: Any, where: str, low: int = -MAX_JSON_INT, high: int = MAX_JSON_INT) -> int:
    """A whole number from ``low`` to ``high`` (``true``/``false`` are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise DocumentError(where, f"expected a whole number, got {_shown(value)}")
    if not low <= value <= high:
        raise DocumentError(where, f"{_shown(value)} is outside {low} to {high}")
    return value


def number(value: Any, where: str) -> float:
    """A finite number."""
    if isinstance(value, int) and not isinstance(value, bool):
        return float(integer(value, where))
    if not isinstance(value, float) or not math.isfinite(value):
        raise DocumentError(where, f"expected a number, got {_shown(value)}")
    return value


def optional(check: Callable[[Any, str], T]) -> Callable[[Any, str], T | None]:
    """The check, or ``None`` for a JSON ``null``."""
    def checked(value: Any, where: str) -> T | None:
        return None if value is None else check(value, where)
    return checked


def items(value: Any, where: str, check: Callable[[Any, str], T]) -> tuple[T, ...]:
    """A list whose every item passes ``check``."""
    return tuple(check(item, f"{where}[{n}]") for n, item in enumerate(arr(value, where)))


def plain(value: Any, where: str, depth: int = 0) -> Any:
    """Any JSON value, its numbers bounded, its strings short, its nesting shallow."""
    if depth > MAX_JSON_DEPTH:
        raise DocumentError(where, f"nested deeper than {MAX_JSON_DEPTH} levels")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return integer(value, where) if isinstance(value, int) else number(value, where)
    if isinstance(value, str):
        return text(value, where)
    if isinstance(value, dict):
        return {text(k, f"{where} key"): plain(v, f"{where}.{k}", depth + 1)
                for k, v in value.items()}
    return [plain(v, f"{where}[{n}]", depth + 1) for n, v in enumerate(arr(value, where))]


def sentence(value: Any, where: str, depth: int = 0) -> str:
    """A sentence for people: a string (as older documents have it), or a
    :class:`~scoring.said.Said` as ``{"code", "params", "message"}``, its parameters numbers,
    strings, nulls or sentences."""
    if isinstance(value, str):
        return text(value, where)
    doc = obj(value, where)
    if depth > MAX_JSON_DEPTH:
        raise DocumentError(where, f"nested deeper than {MAX_JSON_DEPTH} levels")
    code = text(doc.get("code"), f"{where}.code")
    if not CODE.fullmatch(code):
        raise DocumentError(f"{where}.code", f"{_shown(code)} is not a sentence's code")
    params = {}
    for name, param in obj(doc.get("params", {}), f"{where}.params").items():
        inner = f"{where}.params.{name}"
        if not name.isidentifier():
            raise DocumentError(inner, "not a parameter's name")
        params[name] = sentence(param, inner, depth + 1) if isinstance(param, dict) else \
            optional(_scalar)(param, inner)
    return Said(code, text(doc.get("message"), f"{where}.message"), **params)


def _scalar(value: Any, where: str) -> str | int | float:
    if isinstance(value, str):
        return text(value, where)
    return integer(value, where) if isinstance(value, int) else number(value, where)
