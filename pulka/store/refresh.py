"""Rebuild a stored sheet's record from its cells, run the rules engine, store what it says.

After a person's decision the entries no person verified are first decoded again against the
deal log as it now stands (:mod:`pulka.store.redecode`). The record is rebuilt from the cells
(a person's verified value is the cell's value, so it wins), the rules, seats and names coming
from the sheet's identity. The rules engine then
gives the expected sheet, the audit findings and the settlement (Codex 4.2.12-4.2.14), and
the sheet gets its state:

* ``needs_review``: a doubtful cell no person has verified, a missing page, or a record the
  rules engine refuses (``record_error`` says why);
* ``audited``: every cell read or verified, and the audit found something written wrong;
* ``settled``: every cell read or verified and nothing written wrong;
* ``read``: imported, the rules not run yet (only between the two steps of an import, which
  share one transaction, so a file seldom shows it).

Per seat, the settlement row also keeps the two tie-breaks of Codex 4.1.3 (see
:mod:`pulka.report.standings`): remises and all-pass whists.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from scoring import GameRecord, ScoringError, audit, expected_sheet, parse_record, settle_record
from scoring.columns import Column, ColumnKind
from scoring.jsonio import finding_json, fraction_json
from scoring.record import FORMAT
from scoring.settlement import MOUNTAIN_POINT_WHISTS
from scoring.sheet import ExpectedSheet

log = logging.getLogger(__name__)


def now() -> str:
    """The time stamp stored with every write (UTC, ISO 8601, seconds)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def parse_key(key: str) -> tuple[str, str, str | None, int] | int:
    """A cell key as (seat, column, on, entry) for an entry, or the row number for a row.

    >>> parse_key("entry:A:whists:B:3"), parse_key("entry:C:pool:0"), parse_key("row:12")
    (('A', 'whists', 'B', 3), ('C', 'pool', None, 0), 12)
    """
    parts = key.split(":")
    if parts[0] == "row" and len(parts) == 2:
        return int(parts[1])
    if parts[0] == "entry" and len(parts) == 5:
        return parts[1], parts[2], parts[3], int(parts[4])
    if parts[0] == "entry" and len(parts) == 4:
        return parts[1], parts[2], None, int(parts[3])
    raise ValueError(f"cell key {key!r} is neither entry:SEAT:COLUMN[:ON]:N nor row:N")


def rebuild_record(identity: Mapping[str, Any], scan_record: Mapping[str, Any],
                   cells: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The ``pulka-record/1`` document of a sheet from its cells ``(key, value)``.

    Rows give the deal log (empty rows skipped), entries the written columns; when a sheet
    has no row cells (or no entry cells) the scan's record supplies that part.
    """
    seats = list(identity.get("seats") or scan_record.get("seats") or ())
    rows: dict[int, Any] = {}
    entries: dict[tuple[str, str, str | None], dict[int, Any]] = {}
    for key, value in cells:
        where = parse_key(key)
        if isinstance(where, int):
            rows[where] = value
        else:
            seat, kind, on, n = where
            entries.setdefault((seat, kind, on), {})[n] = value
    doc: dict[str, Any] = {"format": FORMAT,
                           "rules": dict(identity.get("rules") or scan_record.get("rules") or {}),
                           "seats": seats}
    names = {s: n for s, n in zip(seats, identity.get("names") or (), strict=False) if n}
    names = names or dict(scan_record.get("names") or {})
    if names:
        doc["names"] = names
    if rows:
        doc["deals"] = [rows[n] for n in sorted(rows) if rows[n] is not None]
    else:
        doc["deals"] = list(scan_record.get("deals") or [])
    if entries:
        written: dict[str, Any] = {s: {"pool": [], "mountain": [],
                                       "whists": {o: [] for o in seats if o != s}}
                                   for s in seats}
        for (seat, kind, on), values in entries.items():
            column = [values[n] for n in sorted(values) if values[n] is not None]
            if seat not in written:
                continue
            if on:
                written[seat]["whists"][on] = column
            else:
                written[seat][kind] = column
        doc["written"] = written
    elif "written" in scan_record:
        doc["written"] = scan_record["written"]
    if "end" in scan_record:
        doc["end"] = scan_record["end"]
    return doc


@dataclass(frozen=True)
class SeatStats:
    """One seat's tie-break figures from one sheet (Codex 4.1.3)."""

    remises: int
    allpass: Fraction


def seat_stats(record: GameRecord, sheet: ExpectedSheet) -> dict[str, SeatStats]:
    """Remises and all-pass whists per seat.

    *Remises*: contracts the seat declared, played and went down on (took fewer tricks than
    bid), a misère caught (a trick taken) counted as well. *All-pass whists*: the whists the
    all-pass deals alone are worth to the seat, each deal's entries settled by the general
    formula of RULES.md §8, S_i = r_p(P_i - P̄) - 10(M_i - M̄) + Σ_j (W_ij - W_ji), and summed:
    positive for a player who did better than the table on the all-passes.
    """
    seats = record.seats
    remises = dict.fromkeys(seats, 0)
    allpass_deals = set()
    for deal in record.deals:
        over = deal.tricks_over()
        if deal.declarer is not None and over is not None and over < 0:
            remises[deal.declarer] += 1
        if deal.kind == "allpass":
            allpass_deals.add(deal.number)
    amounts: dict[Column, Fraction] = {}
    for entry in sheet.entries:
        if entry.deal in allpass_deals:
            amounts[entry.column] = amounts.get(entry.column, Fraction(0)) + entry.amount
    return {s: SeatStats(remises[s], _whists(s, seats, amounts,
                                             record.rules.pool_point_whists))
            for s in seats}


def _whists(seat: str, seats: tuple[str, ...], amounts: Mapping[Column, Fraction],
            pool_point_whists: int) -> Fraction:
    def column(s: str, kind: ColumnKind, on: str | None = None) -> Fraction:
        return amounts.get(Column(s, kind, on), Fraction(0))

    n = len(seats)
    mean_pool = sum((column(s, "pool") for s in seats), Fraction(0)) / n
    mean_mountain = sum((column(s, "mountain") for s in seats), Fraction(0)) / n
    result = pool_point_whists * (column(seat, "pool") - mean_pool) \
        - MOUNTAIN_POINT_WHISTS * (column(seat, "mountain") - mean_mountain)
    for other in seats:
        if other != seat:
            result += column(seat, "whists", other) - column(other, "whists", seat)
    return result


def refresh(conn: sqlite3.Connection, sheet_pk: int, redecode: bool = False) -> str:
    """Rebuild, score and store one sheet inside the caller's transaction; return its state.

    With ``redecode`` (after a person's decision), the entries no person verified are first
    decoded again against the deal log as it now stands (:mod:`pulka.store.redecode`).
    """
    if redecode:
        from pulka.store.redecode import redecode_sheet  # it builds on this module

        redecode_sheet(conn, sheet_pk)
    row = conn.execute("SELECT identity_json, scan_record_json, missing_pages_json FROM sheets "
                       "WHERE id = ?", (sheet_pk,)).fetchone()
    identity = json.loads(row[0])
    cells = conn.execute("SELECT key, value_json, status, verified FROM cells "
                         "WHERE sheet_id = ? ORDER BY id", (sheet_pk,)).fetchall()
    doubtful = sum(1 for _, _, status, verified in cells if status == "doubtful" and not verified)
    doc = rebuild_record(identity, json.loads(row[1]),
                         ((key, json.loads(value)) for key, value, _, _ in cells))
    conn.execute("DELETE FROM findings WHERE sheet_id = ?", (sheet_pk,))
    conn.execute("DELETE FROM settlements WHERE sheet_id = ?", (sheet_pk,))
    error = None
    findings: list[dict[str, Any]] = []
    finished = None
    try:
        record = parse_record(doc)
        sheet = expected_sheet(record)
        findings = [finding_json(f) for f in audit(record, sheet)]
        settlement = settle_record(record, sheet)
        stats = seat_stats(record, sheet)
        finished = sheet.finished
    except (ScoringError, ArithmeticError) as problem:
        error = str(problem)
        log.info("sheet %s: the rules engine refuses the record: %s", identity.get("sheet_id"),
                 error)
    if error is None:
        conn.executemany(
            "INSERT INTO findings (sheet_id, kind, deal, seat, column_kind, on_seat, entry, "
            "written, expected, rule, penalty, note, message) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(sheet_pk, f["kind"], f["deal"], f["seat"], f["column"], f["on"], f["entry"],
              _text(f["written"]), _text(f["expected"]), f["rule"], f["penalty"], f["note"],
              f["message"]) for f in findings])
        money = settlement.money or {}
        conn.executemany(
            "INSERT INTO settlements (sheet_id, seat, result, rounded, codex_integer, money, "
            "remises, allpass) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(sheet_pk, s, fraction_json(settlement.result[s]), settlement.rounded[s],
              settlement.codex_integer[s],
              fraction_json(money[s]) if s in money else None,
              stats[s].remises, fraction_json(stats[s].allpass)) for s in record.seats])
    missing = json.loads(row[2])
    if doubtful or missing or error is not None:
        state = "needs_review"
    else:
        state = "audited" if findings else "settled"
    conn.execute("UPDATE sheets SET state = ?, findings_count = ?, doubtful_count = ?, "
                 "record_json = ?, record_error = ?, finished = ?, refreshed_at = ? "
                 "WHERE id = ?",
                 (state, len(findings), doubtful, json.dumps(doc, ensure_ascii=False), error,
                  None if finished is None else int(finished), now(), sheet_pk))
    return state


def _text(value: Any) -> str | None:
    return None if value is None else str(value)
