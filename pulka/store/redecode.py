"""Decode a stored sheet's columns again after a person's decision (:mod:`scanner.decode.redecode`).

A decision on a deal row changes what the rules expect in the columns; a decision on an entry
changes its writer's previous total for the entries after it. Before the record is rebuilt,
audited and settled (:func:`pulka.store.refresh.refresh`), every entry cell that keeps its ink
(``ink_json``) and that no person verified is decoded again against the deal log as it now
stands (the rows' cells, a person's value winning), the verified entries pinned to their
values. Such a cell gets the new value, status, confidence, candidates, expected value, deal
and note; a verified cell, a row, a cell imported without its ink and a total the scan found
left out by its writer are never changed, and a blank box the scan showed holding the rules'
total (its ink perhaps lost) shows the total the rules then expect.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import replace
from typing import Any, cast

from pulka.store.rebuild import parse_key, rebuild_record
from pulka.store.rows import CellRow, note_json, sheet_cells, sheet_head
from scanner.decode.presence import holds_rules_value
from scanner.decode.redecode import EntryEvidence, ink_mapping, redecode_columns
from scanner.results import CellStatus
from scoring import ScoringError
from scoring.columns import Column, ColumnKind
from scoring.rules import RuleSet

log = logging.getLogger(__name__)

SAME_PROBABILITY = 1e-5
"""Probabilities this close are the same decoding (a cell is then left as it is)."""
LEFT_OUT = "unwritten"
"""The note code of a total the scan found left out by its writer
(:mod:`scanner.decode.unwritten`): it stays empty, as a verified blank, when the sheet is
decoded again (its blank boxes and the deal row it was judged on do not change)."""


def redecode_sheet(conn: sqlite3.Connection, sheet_pk: int) -> int:
    """Decode the sheet's unverified entries again, inside the caller's transaction.

    Returns how many cells changed (value, status, confidence, candidates, expected, deal
    or note); 0 when nothing could be decoded (no ink kept, or a deal log the rules refuse:
    the cells then stay as they are).
    """
    cells = sheet_cells(conn, sheet_pk)
    if not any(cell.ink and not cell.verified for cell in cells):
        return 0
    head = sheet_head(conn, sheet_pk)
    doc = rebuild_record(head.identity, head.scan_record, ((c.key, c.value) for c in cells))
    try:
        rules = RuleSet.from_settings(doc["rules"])
    except ScoringError:
        return 0
    by_column = _entries_by_column(cells)
    entries = {column: [found[n][1] if n in found else EntryEvidence()
                        for n in range(max(found) + 1)]
               for column, found in by_column.items()}
    decided = redecode_columns(doc["deals"], rules, doc["seats"], entries)
    updates = []
    for column, decisions in decided.items():
        for n, decision in enumerate(decisions):
            cell, evidence = by_column[column].get(n, (None, EntryEvidence()))
            if cell is None or not evidence.decodable:
                continue
            new = replace(cell, status=CellStatus(decision.status),
                          value=_plain(decision.value), confidence=round(decision.confidence, 6),
                          candidates=_plain([[v, round(p, 6)] for v, p in decision.candidates]),
                          expected=_plain(decision.expected), deal=decision.deal,
                          note=decision.note)
            if _changed(cell, new):
                updates.append((new.status, json.dumps(new.value), new.confidence,
                                json.dumps(new.candidates), json.dumps(new.expected), new.deal,
                                new.note, note_json(new.note), cell.pk))
    conn.executemany("UPDATE cells SET status = ?, value_json = ?, confidence = ?, "
                     "candidates_json = ?, expected_json = ?, deal = ?, note = ?, note_json = ? "
                     "WHERE id = ?",
                     updates)
    if updates:
        log.info("sheet %s: %d cells decoded again", sheet_pk, len(updates))
    return len(updates)


def _entries_by_column(cells: list[CellRow]
                       ) -> dict[Column, dict[int, tuple[CellRow, EntryEvidence]]]:
    """Each entry cell with its evidence, by column and entry number."""
    by_column: dict[Column, dict[int, tuple[CellRow, EntryEvidence]]] = {}
    for cell in cells:
        where = parse_key(cell.key)
        if isinstance(where, int):
            continue
        seat, kind, on, n = where
        left_out = getattr(cell.note, "code", None) == LEFT_OUT
        evidence = EntryEvidence(ink_mapping(cell.ink) if cell.ink and not left_out else None,
                                 cell.value, cell.verified,
                                 holds_rules_value(cell.value, cell.expected, cell.note))
        by_column.setdefault(Column(seat, cast(ColumnKind, kind), on), {})[n] = (cell, evidence)
    return by_column


def _plain(value: Any) -> Any:
    """A value as it comes back from the store's JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def _changed(old: CellRow, new: CellRow) -> bool:
    """Whether a cell's decoding changed: values compared as JSON values, probabilities to
    within :data:`SAME_PROBABILITY` (the kept ink is rounded)."""
    if (old.status, old.value, old.expected, old.deal, old.note) != \
            (new.status, new.value, new.expected, new.deal, new.note):
        return True
    was, now = old.candidates, new.candidates
    return abs(old.confidence - new.confidence) > SAME_PROBABILITY or len(was) != len(now) \
        or any(a[0] != b[0] or abs(a[1] - b[1]) > SAME_PROBABILITY
               for a, b in zip(was, now, strict=True))
