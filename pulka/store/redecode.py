"""Decode a stored sheet's columns again after a person's decision (:mod:`scanner.decode.redecode`).

A decision on a deal row changes what the rules expect in the columns; a decision on an entry
changes its writer's previous total for the entries after it. Before the record is rebuilt,
audited and settled (:func:`pulka.store.refresh.refresh`), every entry cell that keeps its ink
(``ink_json``) and that no person verified is decoded again against the deal log as it now
stands (the rows' cells, a person's value winning), the verified entries pinned to their
values. Such a cell gets the new value, status, confidence, candidates, expected value, deal
and note; a verified cell, a row, and a cell imported without its ink are never changed.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any, cast

from pulka.store.refresh import parse_key, rebuild_record
from scanner.decode.redecode import EntryEvidence, ink_mapping, redecode_columns
from scoring import ScoringError
from scoring.columns import Column, ColumnKind
from scoring.rules import RuleSet

log = logging.getLogger(__name__)

SAME_PROBABILITY = 1e-5
"""Probabilities this close are the same decoding (a cell is then left as it is)."""


def redecode_sheet(conn: sqlite3.Connection, sheet_pk: int) -> int:
    """Decode the sheet's unverified entries again, inside the caller's transaction.

    Returns how many cells changed (value, status, confidence, candidates, expected, deal
    or note); 0 when nothing could be decoded (no ink kept, or a deal log the rules refuse:
    the cells then stay as they are).
    """
    head = conn.execute("SELECT identity_json, scan_record_json FROM sheets WHERE id = ?",
                        (sheet_pk,)).fetchone()
    cells = conn.execute("SELECT id, key, value_json, verified, ink_json, status, confidence, "
                         "candidates_json, expected_json, deal, note FROM cells "
                         "WHERE sheet_id = ? ORDER BY id", (sheet_pk,)).fetchall()
    if not any(ink and not verified for _, _, _, verified, ink, *_ in cells):
        return 0
    doc = rebuild_record(json.loads(head[0]), json.loads(head[1]),
                         ((key, json.loads(value)) for _, key, value, *_ in cells))
    try:
        rules = RuleSet.from_settings(doc["rules"])
    except ScoringError:
        return 0
    by_column: dict[Column, dict[int, tuple[Any, EntryEvidence]]] = {}
    for cell in cells:
        pk, key, value, verified, ink = cell[:5]
        where = parse_key(key)
        if isinstance(where, int):
            continue
        seat, kind, on, n = where
        evidence = EntryEvidence(ink_mapping(json.loads(ink)) if ink else None,
                                 json.loads(value), bool(verified))
        by_column.setdefault(Column(seat, cast(ColumnKind, kind), on), {})[n] = \
            (cell, evidence)
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
            new = (decision.status, json.dumps(decision.value), round(decision.confidence, 6),
                   json.dumps([[v, round(p, 6)] for v, p in decision.candidates]),
                   json.dumps(decision.expected), decision.deal, decision.note)
            old = (cell[5], cell[2], cell[6], cell[7], cell[8], cell[9], cell[10])
            if _changed(old, new):
                updates.append((*new, cell[0]))
    conn.executemany("UPDATE cells SET status = ?, value_json = ?, confidence = ?, "
                     "candidates_json = ?, expected_json = ?, deal = ?, note = ? WHERE id = ?",
                     updates)
    if updates:
        log.info("sheet %s: %d cells decoded again", sheet_pk, len(updates))
    return len(updates)


def _changed(old: tuple[Any, ...], new: tuple[Any, ...]) -> bool:
    """Whether a cell's decoding changed: JSON compared as values, probabilities to within
    :data:`SAME_PROBABILITY` (the kept ink is rounded, so the scan's own decoding comes back
    a millionth off)."""
    status, value, confidence, candidates, expected, deal, note = old
    if (status, json.loads(value), json.loads(expected), deal, note) != \
            (new[0], json.loads(new[1]), json.loads(new[4]), new[5], new[6]):
        return True
    was, now = json.loads(candidates), json.loads(new[3])
    return abs(confidence - new[2]) > SAME_PROBABILITY or len(was) != len(now) or any(
        a[0] != b[0] or abs(a[1] - b[1]) > SAME_PROBABILITY for a, b in zip(was, now, strict=True))
