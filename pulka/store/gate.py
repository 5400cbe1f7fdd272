"""What an import refuses to store, each with one line that says what happened and what to do:
a blank sheet (no deal, no entry written: not a game), a sheet of a tournament the store does
not hold (never a second tournament started by accident), and a sheet id the store holds with
another identity (never replaced without a word).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from pulka.i18n import _
from pulka.store.joins import game_of
from scanner.results import SheetScan

IDENTITY_FIELDS = ("tournament", "round", "table", "continuation", "rules_id", "seats", "names",
                   "date")
"""The identity fields two scans of one printed sheet agree on (``page`` differs by page)."""


def is_blank(scan: SheetScan) -> bool:
    """Whether nothing is written on the sheet: no deal row, no column entry."""
    return not scan.record.get("deals") and all(f.value in (None, "") for f in scan.fields)


def _differences(stored: dict[str, Any], new: dict[str, Any]) -> list[str]:
    return [_("{field} {new!r}, stored {stored!r}").format(
        field=name, new=new.get(name), stored=stored.get(name)) for name in IDENTITY_FIELDS
            if (stored.get(name) or None) != (new.get(name) or None)]


def refusal(conn: sqlite3.Connection, scan: SheetScan, tournament: str | None,
            replace: bool = False) -> str | None:
    """Why the import must not store ``scan`` (one line), or ``None``.

    ``tournament`` (``pulka import --tournament``) is a tournament the store may start; a
    sheet of any other tournament it does not hold yet is refused. With ``replace``, a sheet
    id stored with another identity is stored again.
    """
    sheet = scan.sheet_id
    if is_blank(scan):
        return _("sheet {id} is blank (no deal, no entry written): not a game, not stored; if "
                 "it was played, scan its written pages").format(id=sheet)
    name = str(scan.identity.get("tournament") or "")
    held = [r[0] for r in conn.execute("SELECT name FROM tournaments ORDER BY id")]
    if held and name not in held and name != tournament:
        holds, option = ", ".join(map(repr, held)), json.dumps(name, ensure_ascii=False)
        if name:
            return _("sheet {id} is of tournament {name!r}, the store holds {held}: not stored; "
                     "if it belongs here, run pulka import --tournament {option} to add that "
                     "tournament, or import it into its own store with --db").format(
                         id=sheet, name=name, held=holds, option=option)
        return _("sheet {id} is printed outside a tournament, the store holds {held}: not "
                 "stored; if it belongs here, run pulka import --tournament {option} to add "
                 "such sheets, or import it into its own store with --db").format(
                     id=sheet, held=holds, option=option)
    row = conn.execute("SELECT identity_json FROM sheets WHERE sheet_id = ?",
                       (scan.sheet_id,)).fetchone()
    differences = [] if row is None else _differences(json.loads(row[0]), scan.identity)
    if differences and not replace:
        return _("sheet {id} is stored already with another identity ({differences}): not "
                 "replaced; check which sheet is right, and import this one with --replace if "
                 "it is").format(id=sheet, differences="; ".join(differences))
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
