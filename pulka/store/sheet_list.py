"""What the review page's sheet list and deal-row grid read from the store.

* :func:`sheet_list`: every sheet with its round, table, state, the doubtful cells nobody
  has verified yet, and its findings, by tournament, round and table;
* :func:`row_context`: what checking a typed deal row needs: the sheet's seats, rules, the
  row's printed dealer (play rotates clockwise from seat A, RECORD.md) and the row's place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pulka.store.database import Store
from pulka.store.errors import StoreError
from pulka.store.rebuild import parse_key
from pulka.store.rows import named_rows


@dataclass(frozen=True)
class SheetListRow:
    """One line of the sheet list."""

    sheet: str
    tournament: str
    round: int | None
    table: int | None
    state: str
    doubts: int
    findings: int
    players: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The row as the page reads it."""
        return {"sheet": self.sheet, "tournament": self.tournament, "round": self.round,
                "table": self.table, "state": self.state, "doubts": self.doubts,
                "findings": self.findings, "players": list(self.players)}


def sheet_list(store: Store) -> list[SheetListRow]:
    """Every sheet in the store, by tournament, round, table and sheet id."""
    rows = named_rows(store.conn, """
        SELECT s.id, s.sheet_id, t.name AS tournament, s.round, s.table_number, s.state,
               s.findings_count,
               (SELECT count(*) FROM cells c WHERE c.sheet_id = s.id
                  AND c.status = 'doubtful' AND c.verified = 0) AS doubts
        FROM sheets s JOIN tournaments t ON t.id = s.tournament_id
        ORDER BY t.name, s.round, s.table_number, s.sheet_id""")
    names: dict[int, list[str]] = {}
    for pk, name in store.conn.execute(
            "SELECT sp.sheet_id, p.name FROM sheet_players sp JOIN players p "
            "ON p.id = sp.player_id ORDER BY sp.sheet_id, sp.seat"):
        names.setdefault(pk, []).append(name)
    return [SheetListRow(r["sheet_id"], r["tournament"], r["round"], r["table_number"],
                         r["state"], r["doubts"], r["findings_count"],
                         tuple(names.get(r["id"], ()))) for r in rows]


@dataclass(frozen=True)
class RowContext:
    """A deal row's sheet: its seats, rule settings, the printed dealer, the row's place."""

    sheet: str
    row: int
    seats: tuple[str, ...]
    rules: dict[str, Any]
    dealer: str
    rect_mm: tuple[float, float, float, float]
    value: Any


def row_context(store: Store, sheet_id: str, key: str) -> RowContext:
    """The context of deal row ``key`` (``row:N``) of a sheet; :class:`StoreError` naming
    the sheet and the key when it is not a stored deal row."""
    try:
        row = parse_key(key)
    except ValueError:
        row = -1
    if not isinstance(row, int) or row < 0:
        raise StoreError(f"sheet {sheet_id}: {key!r} is not a deal row (row:N)")
    cell = store.cell(sheet_id, key)
    found = store.conn.execute("SELECT seats, rules_json FROM sheets WHERE sheet_id = ?",
                               (sheet_id,)).fetchone()
    seats = tuple(found[0])
    if not seats:
        raise StoreError(f"sheet {sheet_id} has no seats stored; import it again")
    value = cell.value if isinstance(cell.value, dict) else None
    dealer = value.get("dealer") if value else None
    if dealer not in seats:
        dealer = seats[row % len(seats)]
    x, y, w, h = (float(v) for v in cell.rect_mm)
    return RowContext(sheet_id, row, seats, json.loads(found[1]), str(dealer), (x, y, w, h),
                      cell.value)
