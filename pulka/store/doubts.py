"""Which fields of a stored sheet wait for a person: its doubtful cells, as the audit counts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pulka.store.rebuild import parse_key
from scanner.results import CellStatus, FieldReading
from scoring.columns import Column, ColumnKind
from scoring.rulings import Doubts


def scan_doubts(fields: Iterable[FieldReading]) -> Doubts:
    """A scan's doubtful fields, before anyone looked at them (:func:`field_doubts`)."""
    return field_doubts((f.key, f.value, f.status is CellStatus.DOUBTFUL) for f in fields)


def field_doubts(fields: Iterable[tuple[str, Any, bool]]) -> Doubts:
    """The doubtful ones of a sheet's fields ``(key, value, doubtful)``, numbered as the
    rebuilt record numbers them.

    Empty cells are left out of the record (:func:`pulka.store.rebuild.rebuild_record`), so a
    row's deal number is one more than the rows with a deal before it, and an entry's position
    one more than the written entries of its column before it; a doubtful empty cell gets the
    number of the field that follows it.
    """
    rows: list[tuple[int, Any, bool]] = []
    columns: dict[Column, list[tuple[int, Any, bool]]] = {}
    for key, value, doubtful in fields:
        where = parse_key(key)
        if isinstance(where, int):
            rows.append((where, value, doubtful))
        else:
            seat, kind, on, n = where
            columns.setdefault(Column(seat, _kind(kind), on), []).append((n, value, doubtful))
    entries = {column: _positions(found) for column, found in columns.items()}
    return Doubts(_positions(rows), {c: p for c, p in entries.items() if p})


def _kind(kind: str) -> ColumnKind:
    if kind == "pool":
        return "pool"
    if kind == "mountain":
        return "mountain"
    return "whists"


def _positions(fields: list[tuple[int, Any, bool]]) -> frozenset[int]:
    """1-based positions among the non-empty fields of the doubtful ones."""
    positions = set()
    written = 0
    for _, value, doubtful in sorted(fields, key=lambda field: field[0]):
        if doubtful:
            positions.add(written + 1)
        if value is not None:
            written += 1
    return frozenset(positions)
