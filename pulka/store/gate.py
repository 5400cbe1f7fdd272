"""What an import refuses to store, each with one line that says what happened and what to do:
a blank sheet (no deal, no entry written: not a game), a sheet of a tournament the store does
not hold (never a second tournament started by accident), and a sheet id the store holds with
another identity (never replaced without a word).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from pulka.store.joins import game_of
from scanner.results import SheetScan

IDENTITY_FIELDS = ("tournament", "round", "table", "continuation", "rules_id", "seats", "names",
                   "date")
"""The identity fields two scans of one printed sheet agree on (``page`` differs by page)."""


def is_blank(scan: SheetScan) -> bool:
    """Whether nothing is written on the sheet: no deal row, no column entry."""
    return not scan.record.get("deals") and all(f.value in (None, "") for f in scan.fields)


def _differences(stored: dict[str, Any], new: dict[str, Any]) -> list[str]:
    return [f"{name} {new.get(name)!r}, stored {stored.get(name)!r}" for name in IDENTITY_FIELDS
            if (stored.get(name) or None) != (new.get(name) or None)]


def refusal(conn: sqlite3.Connection, scan: SheetScan, tournament: str | None,
            replace: bool = False) -> str | None:
    """Why the import must not store ``scan`` (one line), or ``None``.

    ``tournament`` (``pulka import --tournament``) is a tournament the store may start; a
    sheet of any other tournament it does not hold yet is refused. With ``replace``, a sheet
    id stored with another identity is stored again.
    """
    sheet = f"sheet {scan.sheet_id}"
    if is_blank(scan):
        return (f"{sheet} is blank (no deal, no entry written): not a game, not stored; if it "
                f"was played, scan its written pages")
    name = str(scan.identity.get("tournament") or "")
    held = [r[0] for r in conn.execute("SELECT name FROM tournaments ORDER BY id")]
    if held and name not in held and name != tournament:
        whose = f"of tournament {name!r}" if name else "printed outside a tournament"
        return (f"{sheet} is {whose}, the store holds "
                f"{', '.join(map(repr, held))}: not stored; if it belongs here, run pulka "
                f"import --tournament {json.dumps(name, ensure_ascii=False)} to add "
                f"{'that tournament' if name else 'such sheets'}, or import it into its own "
                f"store with --db")
    row = conn.execute("SELECT identity_json FROM sheets WHERE sheet_id = ?",
                       (scan.sheet_id,)).fetchone()
    differences = [] if row is None else _differences(json.loads(row[0]), scan.identity)
    if differences and not replace:
        return (f"{sheet} is stored already with another identity ({'; '.join(differences)}): "
                f"not replaced; check which sheet is right, and import this one with "
                f"--replace if it is")
    return None


def held_reason(conn: sqlite3.Connection, sheet_id: str) -> str | None:
    """What to scan before a stored sheet's game can be scored, or ``None``."""
    row = conn.execute("SELECT id FROM sheets WHERE sheet_id = ?", (sheet_id,)).fetchone()
    return None if row is None else game_of(conn, int(row[0])).held


def sheet_states(conn: sqlite3.Connection, sheet_ids: list[str]) -> dict[str, str]:
    """The state each of the stored sheets is in now (by id)."""
    return {str(i): str(s) for i, s in conn.execute(
        f"SELECT sheet_id, state FROM sheets WHERE sheet_id IN "
        f"({', '.join('?' * len(sheet_ids))})", sheet_ids)}
