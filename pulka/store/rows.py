"""The store's rows as named, frozen values: what the rest of pulka reads instead of tuples."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from scanner.results import CellStatus


@dataclass(frozen=True)
class CellRow:
    """One stored cell (table ``cells``), its JSON columns decoded."""

    pk: int
    sheet_pk: int
    key: str
    page: int
    rect_mm: list[float]
    status: CellStatus
    value: Any
    confidence: float
    candidates: list[list[Any]]
    expected: Any
    deal: int | None
    note: str
    crop: str | None
    ink: tuple[tuple[Any, float], ...] | None
    """An entry's ink evidence ``((value, p), ...)``; ``None`` for a row or an older cell."""
    verified: bool
    verified_by: str | None
    verified_at: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> CellRow:
        """The value of a ``SELECT * FROM cells`` row."""
        return cls(row["id"], row["sheet_id"], row["key"], row["page"],
                   json.loads(row["rect_json"]), CellStatus(row["status"]),
                   json.loads(row["value_json"]), row["confidence"],
                   json.loads(row["candidates_json"]), json.loads(row["expected_json"]),
                   row["deal"], row["note"], row["crop"],
                   None if row["ink_json"] is None
                   else tuple((v, float(p)) for v, p in json.loads(row["ink_json"])),
                   bool(row["verified"]), row["verified_by"], row["verified_at"])


@dataclass(frozen=True)
class DecisionRow:
    """One entry of the review log (table ``decisions``), with its sheet's id."""

    pk: int
    sheet_pk: int
    sheet_id: str
    key: str
    who: str
    at: str
    old_json: str
    new_json: str

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> DecisionRow:
        """The value of a ``SELECT d.*, s.sheet_id AS sheet ...`` row."""
        return cls(row["id"], row["sheet_id"], row["sheet"], row["key"], row["who"], row["at"],
                   row["old_json"], row["new_json"])


def last_decision(conn: sqlite3.Connection, where: str, args: tuple[Any, ...],
                  after: int = 0) -> DecisionRow | None:
    """The newest decision matching ``where`` (on ``d.``) with an id above ``after``."""
    rows = named_rows(conn, "SELECT d.*, s.sheet_id AS sheet FROM decisions d JOIN sheets s "
                            f"ON s.id = d.sheet_id WHERE {where} AND d.id > ? "
                            "ORDER BY d.id DESC LIMIT 1", (*args, after))
    return DecisionRow.from_row(rows[0]) if rows else None


@dataclass(frozen=True)
class SheetHead:
    """The part of a stored sheet a rebuild needs: its identity and the record as scanned."""

    identity: dict[str, Any]
    scan_record: dict[str, Any]
    missing_pages: list[int]


@dataclass(frozen=True)
class ImageRef:
    """Where a sheet's page or crop image is: its ``scan.json`` path and the image's path
    relative to the scan folder (with a ``#xywh=`` fragment for a crop)."""

    scan_path: str | None
    relative: str | None


def named_rows(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()
               ) -> list[sqlite3.Row]:
    """The rows of a query, read by column name."""
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.row_factory = None


def sheet_cells(conn: sqlite3.Connection, sheet_pk: int, order: str = "id") -> list[CellRow]:
    """Every cell of a sheet, in insertion order (or ``page, id``)."""
    if order not in ("id", "page, id"):
        raise ValueError(f"cells are ordered by id or by page, not {order!r}")
    return [CellRow.from_row(r) for r in named_rows(
        conn, f"SELECT * FROM cells WHERE sheet_id = ? ORDER BY {order}", (sheet_pk,))]


def sheet_head(conn: sqlite3.Connection, sheet_pk: int) -> SheetHead:
    """A sheet's identity, record as scanned, and missing pages."""
    identity, scan_record, missing = conn.execute(
        "SELECT identity_json, scan_record_json, missing_pages_json FROM sheets WHERE id = ?",
        (sheet_pk,)).fetchone()
    return SheetHead(json.loads(identity), json.loads(scan_record), json.loads(missing))
