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

A finding that rests on a doubtful field nobody verified waits for review (status
``waits_for_review``, no penalty); a 4.2.7 penalty a judge applied enters the settlement;
scoring a sheet again drops its sign-off (:mod:`pulka.store.rulings`).

Per seat, the settlement row also keeps the two tie-breaks of Codex 4.1.3 (see
:mod:`pulka.report.standings`): remises and all-pass whists.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from pulka.store.doubts import field_doubts
from pulka.store.joins import game_of
from pulka.store.redecode import redecode_sheet
from pulka.store.rows import finding_note_json
from pulka.store.schema import FindingStatus, RulingAction, SheetState
from scoring import GameRecord, ScoringError, audit, expected_sheet, parse_record
from scoring.audit import Finding
from scoring.columns import Column, ColumnKind
from scoring.jsonio import finding_json, fraction_json
from scoring.rulings import Doubts, finding_key, penalised, rests_on
from scoring.settlement import MOUNTAIN_POINT_WHISTS, settle
from scoring.sheet import ExpectedSheet

log = logging.getLogger(__name__)


def now() -> str:
    """The time stamp stored with every write (UTC, ISO 8601, seconds)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


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


SQLITE_INTEGER_MAX = 2**63 - 1
"""Largest integer an SQLite INTEGER column holds (in absolute value, near enough)."""


@dataclass(frozen=True)
class Scored:
    """What the rules engine says about a rebuilt record, or why it refuses it."""

    findings: list[dict[str, Any]]
    rows: list[tuple[Any, ...]]
    """Settlement rows ``(seat, result, rounded, codex_integer, money, remises, allpass)``."""
    finished: bool | None
    error: str | None


HELD = Scored([], [], None, None)
"""What a held game, or a continuation sheet, stores: no findings, no settlement."""


def score(doc: dict[str, Any], doubts: Doubts | None = None,
          applied: frozenset[str] = frozenset()) -> Scored:
    """Parse, audit and settle a ``pulka-record/1`` document (Codex 4.2.12-4.2.14).

    A finding that rests on one of ``doubts`` waits for review and proposes no penalty; the
    4.2.7 penalty of each finding whose key is in ``applied`` enters the settlement.
    """
    try:
        record = parse_record(doc)
        sheet = expected_sheet(record)
        findings = judged_findings(audit(record, sheet), doubts or Doubts())
        columns = penalised(sheet.totals, [f for f, status in findings if status
                                           is FindingStatus.ERROR and finding_key(f) in applied])
        rules = record.rules
        settlement = settle(record.seats, columns, rules.pool_point_whists, rules.stake)
        stats = seat_stats(record, sheet)
    except (ScoringError, ArithmeticError) as problem:
        return Scored([], [], None, str(problem))
    money = settlement.money or {}
    rows = [(s, fraction_json(settlement.result[s]), settlement.rounded[s],
             settlement.codex_integer[s], fraction_json(money[s]) if s in money else None,
             stats[s].remises, fraction_json(stats[s].allpass)) for s in record.seats]
    if any(abs(n) > SQLITE_INTEGER_MAX for row in rows for n in row[2:4]):
        return Scored([], [], None, "the settlement's whole numbers are too large for the "
                                    "store; check the record's stake and pool")
    return Scored([{**finding_json(f), "key": finding_key(f), "status": str(status),
                    "note_json": finding_note_json(f)}
                   for f, status in findings], rows, sheet.finished, None)


def judged_findings(findings: list[Finding], doubts: Doubts
                    ) -> list[tuple[Finding, FindingStatus]]:
    """Each finding with its status; one that waits for review loses its proposed penalty,
    and the amount overstated that words it (:func:`scoring.rulings.rests_on` says which
    fields a finding rests on)."""
    return [(replace(f, penalty=None, overstated=None), FindingStatus.WAITS)
            if rests_on(f, doubts)
            else (f, FindingStatus.ERROR) for f in findings]


def refresh(conn: sqlite3.Connection, sheet_pk: int, redecode: bool = False) -> SheetState:
    """Rebuild, score and store one sheet's game inside the caller's transaction; return its
    state.

    With ``redecode`` (after a person's decision), the entries no person verified are first
    decoded again against the deal log as it now stands (:mod:`pulka.store.redecode`). The
    game's sheets are joined and scored once, on its first sheet; a game with a page or a
    sheet missing is held, not scored (:mod:`pulka.store.joins`).
    """
    if redecode:
        redecode_sheet(conn, sheet_pk)
    game = game_of(conn, sheet_pk)
    applied = frozenset(r[0] for r in conn.execute(
        "SELECT finding_key FROM rulings WHERE sheet_id = ? AND action = ?",
        (game.parts[0], RulingAction.APPLY)))
    scored = HELD if game.held is not None else score(game.doc, field_doubts(game.fields),
                                                       applied)
    conn.executemany("DELETE FROM signoffs WHERE sheet_id = ?", [(pk,) for pk in game.parts])
    if scored.error is not None:
        log.info("sheet %s: the rules engine refuses the record: %s",
                 game.doc.get("sheet_id", sheet_pk), scored.error)
    if any(game.doubtful.values()) or game.held is not None or scored.error is not None:
        state = SheetState.NEEDS_REVIEW
    else:
        state = SheetState.AUDITED if scored.findings else SheetState.SETTLED
    for pk in game.parts:
        lead = pk == game.parts[0]
        part = scored if lead else HELD
        _store_scores(conn, pk, part)
        doc = game.doc if lead else game.own_docs[pk]
        conn.execute("UPDATE sheets SET state = ?, findings_count = ?, doubtful_count = ?, "
                     "record_json = ?, record_error = ?, finished = ?, refreshed_at = ? "
                     "WHERE id = ?",
                     (state, len(part.findings), game.doubtful[pk],
                      json.dumps(doc, ensure_ascii=False), part.error,
                      None if part.finished is None else int(part.finished), now(), pk))
    return state


def _store_scores(conn: sqlite3.Connection, sheet_pk: int, scored: Scored) -> None:
    """Replace the sheet's findings and settlement rows."""
    conn.execute("DELETE FROM findings WHERE sheet_id = ?", (sheet_pk,))
    conn.execute("DELETE FROM settlements WHERE sheet_id = ?", (sheet_pk,))
    conn.executemany(
        "INSERT INTO findings (sheet_id, kind, deal, seat, column_kind, on_seat, entry, "
        "written, expected, rule, penalty, note, message, key, status, note_json) "
        f"VALUES ({', '.join('?' * 16)})",
        [(sheet_pk, f["kind"], f["deal"], f["seat"], f["column"], f["on"], f["entry"],
          _text(f["written"]), _text(f["expected"]), f["rule"], f["penalty"], f["note"],
          f["message"], f["key"], f["status"], f["note_json"]) for f in scored.findings])
    conn.executemany(
        "INSERT INTO settlements (sheet_id, seat, result, rounded, codex_integer, money, "
        "remises, allpass) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(sheet_pk, *row) for row in scored.rows])


def _text(value: Any) -> str | None:
    return None if value is None else str(value)
