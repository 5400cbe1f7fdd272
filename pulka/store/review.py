"""What the review page asks of the store: the queue of doubtful cells, a person's decisions.

Works on :mod:`pulka.store.database`'s tables (no schema change):

* :func:`queue`: every doubtful cell no person has verified, grouped by sheet, the sheet with
  the worst cell first and the worst cell first within it (SDAPS sorts sheets by quality);
  cells skipped in this session go last;
* :func:`decide`: a person's value (a candidate accepted, a value typed) or *illegible*
  (the cell verified as empty, its note saying so), saved with who and when in the
  ``decisions`` log, the sheet's other entries decoded again with the rules
  (:mod:`pulka.store.redecode`), rebuilt, audited and settled in the same transaction;
* :func:`undo_last`: takes back a person's last decision (the cell gets its old value, and is
  unverified again unless an earlier decision on it remains), the sheet decoded again;
* :func:`sheet_view`, :func:`panel`: a sheet's cells with their state, its findings and
  settlement, as JSON-ready values for the page.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Collection
from typing import Any

from pulka.i18n import _
from pulka.notes import illegible_note, without_illegible
from pulka.report.finding_text import stored_finding_text
from pulka.report.said_text import said_text
from pulka.store.database import Store
from pulka.store.errors import StoreError
from pulka.store.rebuild import parse_key
from pulka.store.refresh import now, refresh
from pulka.store.rows import CellRow, last_decision, named_rows, note_json, sheet_cells
from pulka.store.schema import SheetState
from scanner.results import CellStatus, ink_shares

log = logging.getLogger(__name__)

ILLEGIBLE = "illegible"
"""The action of marking a cell illegible (its value is then empty, its note says so:
:func:`pulka.notes.illegible_note`)."""
NEIGHBOURS = 2
"""Entries shown on each side of a doubtful one in its column (the running total)."""
MAX_ENTRY = 100_000
"""Largest typed entry, in absolute value (a running total of whists or points)."""
CELL_STATES = ("read", "doubtful", "verified", "finding", "empty")


def _players(conn: sqlite3.Connection, sheet_pk: int) -> dict[str, str]:
    return dict(conn.execute(
        "SELECT sp.seat, p.name FROM sheet_players sp JOIN players p ON p.id = sp.player_id "
        "WHERE sp.sheet_id = ? ORDER BY sp.seat", (sheet_pk,)).fetchall())


def cell_label(key: str, players: dict[str, str], deal: int | None = None) -> str:
    """A cell key in words.

    >>> cell_label("entry:A:whists:B:0", {"A": "Ann", "B": "Bob"}, 7)
    'Ann (A) · whists on Bob (B) · entry 1 · deal 7'
    >>> cell_label("row:17", {}, 18)
    'deal 18 (row 18)'
    """
    where = parse_key(key)
    if isinstance(where, int):
        return _("deal {n} (row {row})").format(n=deal if deal is not None else where + 1,
                                                row=where + 1)
    seat, kind, on, n = where

    def who(s: str) -> str:
        return f"{players[s]} ({s})" if players.get(s) else s

    column = _("whists on {seat}").format(seat=who(on)) if on else \
        {"pool": _("pool"), "mountain": _("mountain")}.get(kind, kind)
    text = f"{who(seat)} · {column} · " + _("entry {n}").format(n=n + 1)
    return text + (" · " + _("deal {n}").format(n=deal) if deal is not None else "")


def finding_key(finding: dict[str, Any]) -> str | None:
    """The cell key a finding points at (its entry is 1-based), if it names an entry."""
    if finding.get("entry") is None:
        return None
    column = finding["column"]
    on = finding.get("on") or finding.get("on_seat")
    base = f"entry:{finding['seat']}:{column}"
    return f"{base}:{on}:{finding['entry'] - 1}" if on else f"{base}:{finding['entry'] - 1}"


def _neighbours(key: str, cells: dict[str, CellRow]) -> list[dict[str, Any]]:
    """The entries around ``key`` in its column (or the rows around a row), in order."""
    where = parse_key(key)
    if isinstance(where, int):
        prefix, n = "row", where
    else:
        prefix, n = key.rsplit(":", 1)[0], where[3]
    out = []
    for m in range(n - NEIGHBOURS, n + NEIGHBOURS + 1):
        cell = cells.get(f"{prefix}:{m}")
        if cell is None or (prefix == "row" and abs(m - n) > 1):
            continue
        out.append({"key": cell.key, "n": m + 1, "value": cell.value, "status": cell.status,
                    "verified": cell.verified, "deal": cell.deal, "current": m == n})
    return out


def _cell_json(cell: CellRow, players: dict[str, str]) -> dict[str, Any]:
    return {"key": cell.key, "page": cell.page, "rect_mm": cell.rect_mm,
            "status": cell.status, "value": cell.value, "confidence": cell.confidence,
            "candidates": cell.candidates, "expected": cell.expected, "deal": cell.deal,
            "note": said_text(cell.note), "note_code": getattr(cell.note, "code", None),
            "has_crop": bool(cell.crop),
            "ink_alone": [[value, round(share, 4)]
                          for value, share in ink_shares(cell.ink or ())],
            "verified": cell.verified, "verified_by": cell.verified_by,
            "verified_at": cell.verified_at,
            "label": cell_label(cell.key, players, cell.deal)}


def queue(store: Store, skipped: Collection[tuple[str, str]] = ()) -> dict[str, Any]:
    """The doubtful cells still to decide, worst first, grouped by sheet.

    ``skipped`` are ``(sheet id, key)`` pairs put off in this session: they go last.
    """
    conn = store.conn
    doubtful = [CellRow.from_row(r) for r in named_rows(
        conn, "SELECT c.* FROM cells c JOIN sheets s ON s.id = c.sheet_id "
              "WHERE c.status = 'doubtful' AND c.verified = 0 "
              "ORDER BY c.confidence, s.sheet_id, c.id")]
    by_sheet: dict[int, list[CellRow]] = {}
    for cell in doubtful:
        by_sheet.setdefault(cell.sheet_pk, []).append(cell)
    groups = [_queue_group(conn, pk, cells, skipped) for pk, cells in by_sheet.items()]
    groups.sort(key=lambda g: (g["worst"], g["sheet"]))
    for group in groups:
        del group["worst"]
    (decided,) = conn.execute("SELECT count(*) FROM decisions").fetchone()
    return {"sheets": groups, "total": len(doubtful), "decided": decided,
            "states": store.state_counts()}


def _queue_group(conn: sqlite3.Connection, pk: int, doubtful: list[CellRow],
                 skipped: Collection[tuple[str, str]]) -> dict[str, Any]:
    """One sheet's doubtful cells, worst first, skipped ones last."""
    head = named_rows(conn, "SELECT s.sheet_id, s.round, s.table_number, s.state, "
                            "s.findings_count, t.name AS tournament FROM sheets s "
                            "JOIN tournaments t ON t.id = s.tournament_id WHERE s.id = ?",
                      (pk,))[0]
    sheet = head["sheet_id"]

    def rank(cell: CellRow) -> tuple[bool, float]:
        return (sheet, cell.key) in skipped, cell.confidence

    doubtful = sorted(doubtful, key=rank)
    players = _players(conn, pk)
    cells = {c.key: c for c in sheet_cells(conn, pk)}
    items = [{**_cell_json(cell, players), "sheet": sheet,
              "skipped": (sheet, cell.key) in skipped,
              "neighbours": _neighbours(cell.key, cells)} for cell in doubtful]
    return {"sheet": sheet, "tournament": head["tournament"], "round": head["round"],
            "table": head["table_number"], "state": head["state"],
            "findings": head["findings_count"], "players": players,
            "worst": rank(doubtful[0]), "cells": items}


def panel(store: Store, sheet_id: str) -> dict[str, Any]:
    """A sheet's state, findings (with the cell each points at, ``key``, and their own key,
    ``finding_key``, that a ruling names), settlement by player, and sign-off."""
    summary = store.sheet_summary(sheet_id)
    players = summary["players"]
    findings = [{**f, "finding_key": f["key"], "key": finding_key(f),
                 "text": stored_finding_text(f, summary["columns"])}
                for f in summary["findings"]]
    settlement = [{"seat": seat, "player": players.get(seat, seat), **row}
                  for seat, row in summary["settlement"].items()]
    return {"sheet": sheet_id, "tournament": summary["tournament"], "round": summary["round"],
            "table": summary["table"], "state": summary["state"], "players": players,
            "seats": summary["seats"], "doubtful": summary["doubtful_count"],
            "record_error": summary["record_error"], "problems": summary["problems"],
            "findings": findings, "settlement": settlement,
            "signed_off": summary["signed_off"]}


def sheet_view(store: Store, sheet_id: str) -> dict[str, Any]:
    """Everything the sheet view draws: pages, every cell with its state, and the panel."""
    info = panel(store, sheet_id)
    pk = store._sheet_pk(sheet_id)  # noqa: SLF001 - same package, same tables
    flagged = {f["key"] for f in info["findings"] if f["key"]}
    cells = []
    for cell in sheet_cells(store.conn, pk, order="page, id"):
        item = _cell_json(cell, info["players"])
        if cell.key in flagged:
            item["state"] = "finding"
        elif cell.verified:
            item["state"] = "verified"
        elif cell.status in (CellStatus.DOUBTFUL, CellStatus.EMPTY):
            item["state"] = str(cell.status)
        else:
            item["state"] = "read"
        cells.append(item)
    pages = [{"page": r[0], "has_image": bool(r[1])} for r in store.conn.execute(
        "SELECT page_index, image FROM pages WHERE sheet_id = ? ORDER BY page_index", (pk,))]
    return {**info, "pages": pages, "cells": cells}


def check_value(key: str, value: Any) -> Any:
    """A person's value for a cell, checked: an entry is an integer, a row a deal object.

    ``None`` (empty) fits both. Raises :class:`StoreError` naming the cell otherwise.

    >>> check_value("entry:A:pool:0", 12), check_value("row:3", None)
    (12, None)
    """
    if value is None:
        return None
    if isinstance(parse_key(key), int):
        if not isinstance(value, dict) or "type" not in value:
            raise StoreError(f"cell {key}: a deal row takes a deal object "
                             f"(pulka-record/1, with its \"type\"), got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_ENTRY:
        raise StoreError(f"cell {key}: an entry takes a whole number up to {MAX_ENTRY}, "
                         f"got {value!r}")
    return value


def decide(store: Store, sheet_id: str, key: str, value: Any, who: str,
           illegible: bool = False) -> SheetState:
    """A person's decision on one cell, saved, logged and scored again in one transaction.

    With ``illegible`` the cell is verified empty and its note says ``illegible``. Returns
    the sheet's new state.
    """
    if not who:
        raise StoreError("a decision needs the name of who made it")
    value = None if illegible else check_value(key, value)
    with store.transaction() as conn:
        cell = store.cell(sheet_id, key)
        pk = cell.sheet_pk
        note = without_illegible(cell.note)
        if illegible:
            note = illegible_note(note)
        new = json.dumps(value, ensure_ascii=False)
        stamp = now()
        conn.execute("UPDATE cells SET value_json = ?, note = ?, note_json = ?, verified = 1, "
                     "verified_by = ?, verified_at = ? WHERE id = ?",
                     (new, note, note_json(note), who, stamp, cell.pk))
        conn.execute("INSERT INTO decisions (sheet_id, key, who, at, old_json, new_json) "
                     "VALUES (?, ?, ?, ?, ?, ?)",
                     (pk, key, who, stamp, json.dumps(cell.value, ensure_ascii=False), new))
        state = refresh(conn, pk, redecode=True)
    log.info("%s %s: %s by %s -> %s", sheet_id, key, ILLEGIBLE if illegible else new, who,
             state)
    return state


def undo_last(store: Store, who: str) -> dict[str, Any] | None:
    """Take back ``who``'s last decision; ``None`` when there is none.

    The decision leaves the log, the cell gets the value it had before (and is unverified
    unless an earlier decision on it remains). Refused when someone changed the cell since.
    """
    with store.transaction() as conn:
        last = last_decision(conn, "d.who = ?", (who,))
        if last is None:
            return None
        later = last_decision(conn, "d.sheet_id = ? AND d.key = ?", (last.sheet_pk, last.key),
                              after=last.pk)
        if later is not None:
            raise StoreError(f"sheet {last.sheet_id} cell {last.key}: {later.who} changed it "
                             f"since; decide it again instead of undoing")
        conn.execute("DELETE FROM decisions WHERE id = ?", (last.pk,))
        before = last_decision(conn, "d.sheet_id = ? AND d.key = ?", (last.sheet_pk, last.key))
        note = store.cell(last.sheet_id, last.key).note
        if before is None or before.new_json != "null":
            note = without_illegible(note)
        conn.execute("UPDATE cells SET value_json = ?, note = ?, note_json = ?, verified = ?, "
                     "verified_by = ?, verified_at = ? WHERE sheet_id = ? AND key = ?",
                     (last.old_json, note, note_json(note), int(before is not None),
                      before and before.who,
                      before and before.at, last.sheet_pk, last.key))
        state = refresh(conn, last.sheet_pk, redecode=True)
    sheet_id, key = last.sheet_id, last.key
    log.info("%s %s: %s's decision undone -> %s", sheet_id, key, who, state)
    return {"sheet": sheet_id, "key": key, "state": state}
