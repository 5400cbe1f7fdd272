"""One stored sheet as JSON-ready values: what ``pulka show`` prints (or writes with --json)."""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

from pulka.store.joins import game_of, game_parts
from pulka.store.rows import CellRow, sheet_cells, sheet_findings, sheet_signoff
from scanner.results import CellStatus
from scoring.said import said_json

log = logging.getLogger(__name__)

SUMMARY_FORMAT = "pulka-sheet-summary/1"


def sheet_summary(conn: sqlite3.Connection, sheet_pk: int) -> dict[str, Any]:
    """Identity, state, pages, written columns, findings (each with its status and ruling),
    settlement, sign-off and the cells to check."""
    conn.row_factory = sqlite3.Row
    try:
        sheet = conn.execute("SELECT s.*, t.name AS tournament FROM sheets s JOIN tournaments t "
                             "ON t.id = s.tournament_id WHERE s.id = ?", (sheet_pk,)).fetchone()
        players = dict(conn.execute(
            "SELECT sp.seat, p.name FROM sheet_players sp JOIN players p ON p.id = sp.player_id "
            "WHERE sp.sheet_id = ? ORDER BY sp.seat", (sheet_pk,)).fetchall())
        pages = [{"page": r["page_index"], "source": r["source"], "image": r["image"],
                  "fit_error_mm": r["fit_error_mm"], "warnings": json.loads(r["warnings_json"]),
                  "hash": r["content_hash"]}
                 for r in conn.execute("SELECT * FROM pages WHERE sheet_id = ? "
                                       "ORDER BY page_index", (sheet_pk,))]
        settlement = {r["seat"]: {"result": r["result"], "rounded": r["rounded"],
                                  "codex_integer": r["codex_integer"], "money": r["money"],
                                  "remises": r["remises"], "allpass": r["allpass"]}
                      for r in conn.execute("SELECT * FROM settlements WHERE sheet_id = ? "
                                            "ORDER BY seat", (sheet_pk,))}
    finally:
        conn.row_factory = None
    cells = sheet_cells(conn, sheet_pk)
    findings = [f.to_json() for f in sheet_findings(conn, sheet_pk)]
    signed = sheet_signoff(conn, sheet_pk)
    game = game_of(conn, sheet_pk)
    record = json.loads(sheet["record_json"]) if sheet["record_json"] else {}
    return {
        "format": SUMMARY_FORMAT,
        "sheet_id": sheet["sheet_id"], "tournament": sheet["tournament"],
        "round": sheet["round"], "table": sheet["table_number"],
        "continuation": sheet["continuation"], "layout_id": sheet["layout_id"],
        "rules_id": sheet["rules_id"], "rules": json.loads(sheet["rules_json"]),
        "seats": list(sheet["seats"]), "players": players,
        "state": sheet["state"], "findings_count": sheet["findings_count"],
        "doubtful_count": sheet["doubtful_count"],
        "missing_pages": json.loads(sheet["missing_pages_json"]),
        "problems": json.loads(sheet["problems_json"]),
        "record_error": sheet["record_error"],
        "finished": None if sheet["finished"] is None else bool(sheet["finished"]),
        "deals": len(record.get("deals", [])),
        "columns": record.get("written", {}),
        "pages": pages, "findings": findings, "settlement": settlement,
        "signed_off": None if signed is None else {"by": signed.who, "at": signed.at},
        "doubtful": [_cell(c) for c in cells
                     if c.status is CellStatus.DOUBTFUL and not c.verified],
        "verified": [{**_cell(c), "by": c.verified_by, "at": c.verified_at}
                     for c in cells if c.verified],
        "imported_at": sheet["imported_at"], "refreshed_at": sheet["refreshed_at"],
        "scan_path": sheet["scan_path"],
        "held": game.held,
        "game": [sheet_id for _, _, sheet_id in game_parts(conn, sheet_pk)],
    }


def _cell(cell: CellRow) -> dict[str, Any]:
    return {"key": cell.key, "page": cell.page, "status": cell.status, "value": cell.value,
            "confidence": cell.confidence, "candidates": cell.candidates,
            "expected": cell.expected, "deal": cell.deal, "note": said_json(cell.note),
            "crop": cell.crop}
