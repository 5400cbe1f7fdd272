"""The store's rows as named, frozen values: what the rest of pulka reads instead of tuples."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scanner.results import CellStatus
from scoring.audit import Finding
from scoring.said import Said, said_json


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
                   row["deal"], stored_note(row["note"], row["note_json"]), row["crop"],
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


@dataclass(frozen=True)
class FindingRow:
    """One stored finding (table ``findings``), numbered as ``pulka show`` lists it, with the
    judge's ruling on it (``rulings``) when there is one."""

    number: int
    key: str
    kind: str
    deal: int | None
    seat: str
    column: str
    on: str | None
    entry: int | None
    written: str | None
    expected: str | None
    rule: str
    penalty: str | None
    note: str
    message: str
    status: str
    note_code: str
    """What the note says, by code (:attr:`scoring.audit.Finding.note_code`; empty for a row
    stored before codes, whose ``note`` is then shown as it is)."""
    note_args: tuple[str, ...]
    ruling: str | None
    ruled_by: str | None
    ruled_at: str | None

    def to_json(self) -> dict[str, Any]:
        """The finding as ``pulka show --json`` prints it."""
        return {"number": self.number, "key": self.key, "kind": self.kind, "deal": self.deal,
                "seat": self.seat, "column": self.column, "on": self.on, "entry": self.entry,
                "written": self.written, "expected": self.expected, "rule": self.rule,
                "penalty": self.penalty, "note": self.note, "message": self.message,
                "status": self.status, "note_code": self.note_code,
                "note_args": [said_json(arg) for arg in self.note_args],
                "ruling": None if self.ruling is None else
                {"action": self.ruling, "by": self.ruled_by, "at": self.ruled_at}}


def sheet_findings(conn: sqlite3.Connection, sheet_pk: int) -> list[FindingRow]:
    """A sheet's findings in the order the audit gave them, each with its ruling."""
    rows = named_rows(conn, "SELECT f.*, r.action, r.who, r.at FROM findings f LEFT JOIN "
                            "rulings r ON r.sheet_id = f.sheet_id AND r.finding_key = f.key "
                            "WHERE f.sheet_id = ? ORDER BY f.id", (sheet_pk,))
    return [FindingRow(n, r["key"], r["kind"], r["deal"], r["seat"], r["column_kind"],
                       r["on_seat"], r["entry"], r["written"], r["expected"], r["rule"],
                       r["penalty"], r["note"], r["message"], r["status"],
                       *_finding_note(r["note_json"]), r["action"], r["who"], r["at"])
            for n, r in enumerate(rows, 1)]


def finding_note_json(finding: Finding) -> str | None:
    """What a finding's ``note_json`` keeps: its note's code and arguments (each a sentence
    by code where it is one: the rules' reasons), NULL without a code."""
    if not finding.note_code:
        return None
    return json.dumps({"code": finding.note_code,
                       "args": [said_json(arg) for arg in finding.note_args]},
                      ensure_ascii=False)


def _finding_note(coded: str | None) -> tuple[str, tuple[str, ...]]:
    if coded is None:
        return "", ()
    doc = json.loads(coded)
    return doc["code"], sentences(doc["args"])


def sentences(values: Sequence[Any]) -> tuple[str, ...]:
    """Sentences as JSON holds them (:func:`scoring.said.said_json`), back as values."""
    return tuple(Said.from_json(v) if isinstance(v, dict) else str(v) for v in values)


@dataclass(frozen=True)
class SignOff:
    """Who signed a sheet off, and when (table ``signoffs``)."""

    who: str
    at: str


def sheet_signoff(conn: sqlite3.Connection, sheet_pk: int) -> SignOff | None:
    """A sheet's sign-off, if it has one."""
    row = conn.execute("SELECT who, at FROM signoffs WHERE sheet_id = ?",
                       (sheet_pk,)).fetchone()
    return None if row is None else SignOff(row[0], row[1])


def stored_note(note: str, coded: str | None) -> str:
    """A stored note: by code (``note_json``, a :class:`~scoring.said.Said`) when the row has
    one, else the text as stored."""
    return note if coded is None else Said.from_json(json.loads(coded))


def note_json(note: str) -> str | None:
    """What ``note_json`` keeps of a note: its code and parameters, or NULL without a code."""
    return json.dumps(note.to_json(), ensure_ascii=False) if isinstance(note, Said) else None


def sentences_json(texts: Sequence[str]) -> str:
    """A list of sentences as a JSON column keeps them (``warnings_json``, ``problems_json``):
    each by code where it has one (:func:`scoring.said.said_json`)."""
    return json.dumps([said_json(text) for text in texts], ensure_ascii=False)


def stored_sentences(column: str) -> tuple[str, ...]:
    """The sentences of a JSON column (:func:`sentences_json`; plain strings before codes)."""
    return sentences(json.loads(column))
