"""The sheets of one game joined into one record before the rules engine sees it, and what
holds a game back (pages not scanned, a sheet of the game not imported).

A game is its first sheet and its continuation sheets: the sheets whose ids give the same
``forms.identity.first_sheet_id`` (forms/LAYOUT.md, "Continuation sheets"). Each sheet is
stored as scanned, with its own cells; the game's record is the deal rows and the column
entries of its sheets in the order of ``continuation``, whatever the order they were imported
in, so deal numbering and running totals continue from sheet to sheet. The game is audited
and settled once, on its first sheet; the continuations carry no settlement, so a long game
counts once in the standings. A game with a page or a sheet missing is *held*: not scored at
all, rather than audited against entries that were never read.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from forms.identity import first_sheet_id
from pulka.i18n import _, ngettext
from pulka.store.rebuild import parse_key, rebuild_record
from pulka.store.rows import sheet_cells, sheet_head
from scanner.results import CellStatus, entry_key, row_key

CONTINUATION_OFFSET = 100_000
"""Added to a row or entry number per continuation, so the joined keys sort in game order."""


def pages_text(pages: list[int]) -> str:
    """Page indices (from 0) as people count them (from 1), runs joined.

    >>> pages_text([1, 2]), pages_text([0]), pages_text([0, 2, 3])
    ('pages 2-3', 'page 1', 'pages 1, 3-4')
    """
    runs: list[list[int]] = []
    for page in sorted(pages):
        if runs and page == runs[-1][-1] + 1:
            runs[-1].append(page)
        else:
            runs.append([page])
    parts = [f"{r[0] + 1}" if len(r) == 1 else f"{r[0] + 1}-{r[-1] + 1}" for r in runs]
    return ngettext("page {list}", "pages {list}", len(pages)).format(list=", ".join(parts))


@dataclass(frozen=True)
class Game:
    """The stored sheets of one game, its joined record, and why it is held (if it is)."""

    parts: tuple[int, ...]
    """The sheets' row ids in ``continuation`` order; the first is where the game is scored."""
    doc: dict[str, Any]
    """The joined ``pulka-record/1`` document."""
    own_docs: dict[int, dict[str, Any]]
    """Each sheet's own record, rebuilt from its cells alone."""
    doubtful: dict[int, int]
    """Each sheet's doubtful cells nobody verified."""
    held: str | None
    """What to scan before the game can be scored (``None`` when nothing is missing)."""
    fields: tuple[tuple[str, Any, bool], ...] = ()
    """Every cell of the game ``(key, value, doubtful and unverified)``, keys renumbered in
    game order: what a finding may rest on (:func:`pulka.store.doubts.field_doubts`)."""


def game_parts(conn: sqlite3.Connection, sheet_pk: int) -> list[tuple[int, int, str]]:
    """``(row id, continuation, sheet id)`` of every stored sheet of the game, in order."""
    (sheet_id,) = conn.execute("SELECT sheet_id FROM sheets WHERE id = ?",
                               (sheet_pk,)).fetchone()
    first = first_sheet_id(sheet_id)
    rows = conn.execute("SELECT id, continuation, sheet_id FROM sheets WHERE sheet_id = ? "
                        "OR sheet_id LIKE ?", (first, f"{first}-C%")).fetchall()
    return sorted(((int(pk), int(c), str(s)) for pk, c, s in rows
                   if first_sheet_id(str(s)) == first), key=lambda p: (p[1], p[0]))


def _renumbered(key: str, continuation: int) -> str:
    where = parse_key(key)
    offset = continuation * CONTINUATION_OFFSET
    if isinstance(where, int):
        return row_key(where + offset)
    seat, kind, on, n = where
    return entry_key(seat, kind, on, n + offset)


def game_of(conn: sqlite3.Connection, sheet_pk: int) -> Game:
    """The game ``sheet_pk`` belongs to, its sheets' cells joined in continuation order."""
    parts = game_parts(conn, sheet_pk)
    heads = {pk: sheet_head(conn, pk) for pk, _, _ in parts}
    joined: list[tuple[str, Any]] = []
    fields: list[tuple[str, Any, bool]] = []
    own_docs, doubtful = {}, {}
    for pk, continuation, _id in parts:
        cells = sheet_cells(conn, pk)
        doubtful[pk] = sum(1 for c in cells if c.status is CellStatus.DOUBTFUL and not c.verified)
        own_docs[pk] = rebuild_record(heads[pk].identity, heads[pk].scan_record,
                                      ((c.key, c.value) for c in cells))
        for cell in cells:
            key = _renumbered(cell.key, continuation)
            joined.append((key, cell.value))
            fields.append((key, cell.value,
                           cell.status is CellStatus.DOUBTFUL and not cell.verified))
    lead = heads[parts[0][0]]
    doc = own_docs[parts[0][0]] if len(parts) == 1 else \
        rebuild_record(lead.identity, lead.scan_record, joined)
    last = heads[parts[-1][0]].scan_record
    if len(parts) > 1 and "end" in last:
        doc["end"] = last["end"]
    return Game(tuple(pk for pk, _, _ in parts), doc, own_docs, doubtful,
                _held(parts, {pk: h.missing_pages for pk, h in heads.items()}), tuple(fields))


def _held(parts: list[tuple[int, int, str]], missing: dict[int, list[int]]) -> str | None:
    """What to scan before the game can be scored: missing pages, then missing sheets."""
    wanted = [_("{pages} of sheet {id}").format(pages=pages_text(missing[pk]), id=sheet_id)
              for pk, _c, sheet_id in parts if missing[pk]]
    first = first_sheet_id(parts[0][2])
    numbers = {c for _pk, c, _id in parts}
    wanted += [_("sheet {id} (not imported)").format(id=first + (f"-C{c}" if c else ""))
               for c in range(max(numbers)) if c not in numbers]
    return _("scan {what}").format(what="; ".join(wanted)) if wanted else None
