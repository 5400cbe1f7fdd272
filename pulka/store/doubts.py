"""Which fields of a stored sheet wait for a person: its doubtful cells, as the audit counts."""

from __future__ import annotations

from collections.abc import Iterable

from pulka.store.rebuild import parse_key
from pulka.store.rows import CellRow
from scanner.results import CellStatus
from scoring.audit import Doubts
from scoring.columns import Column, ColumnKind


def sheet_doubts(cells: Iterable[CellRow]) -> Doubts:
    """The doubtful cells nobody verified, numbered as the rebuilt record numbers them.

    Empty cells are left out of the record (:func:`pulka.store.rebuild.rebuild_record`), so a
    row's deal number is one more than the rows with a deal before it, and an entry's position
    one more than the written entries of its column before it; a doubtful empty cell gets the
    number of the field that follows it.
    """
    rows: list[tuple[int, CellRow]] = []
    columns: dict[Column, list[tuple[int, CellRow]]] = {}
    for cell in cells:
        where = parse_key(cell.key)
        if isinstance(where, int):
            rows.append((where, cell))
        else:
            seat, kind, on, n = where
            column = Column(seat, _kind(kind), on)
            columns.setdefault(column, []).append((n, cell))
    entries = {column: _positions(found) for column, found in columns.items()}
    return Doubts(_positions(rows), {c: p for c, p in entries.items() if p})


def _kind(kind: str) -> ColumnKind:
    if kind == "pool":
        return "pool"
    if kind == "mountain":
        return "mountain"
    return "whists"


def _positions(cells: list[tuple[int, CellRow]]) -> frozenset[int]:
    """1-based positions among the non-empty cells of the doubtful, unverified ones."""
    positions = set()
    written = 0
    for _, cell in sorted(cells, key=lambda pair: pair[0]):
        if cell.status is CellStatus.DOUBTFUL and not cell.verified:
            positions.add(written + 1)
        if cell.value is not None:
            written += 1
    return frozenset(positions)
