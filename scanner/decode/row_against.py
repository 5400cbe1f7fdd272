"""A deal row read surely is no surer than the boxes of the totals it writes.

A row's reading stands on its own ink and on the running totals it writes. Where its own
ink is sure enough to outweigh totals that read otherwise, those entries are made doubtful
against the rules' value (:mod:`scanner.decode.columns`), and the row is read: the entries'
ink is taken for a writer's slip or ink lost. Where :data:`ENTRIES_AGAINST` of the totals
this row writes read otherwise, one of them another number written
(:data:`WRITTEN_AGAINST_SHARE`), two boxes witness against the row's digits: the row is
*doubtful* too, not left read while the players' entries are asked as if they had written
wrong. TRAINING part, a fresh set, far photo of pencil (seed
245, sheet 007): a row's tricks read 2 and 2 at 1.0000 for the 4 and 0 written, the first
whister's 16 read 6 and the other whister's box blank, both asked against the rules' 8;
the row itself stood read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from scanner.decode.columns import EntryDecision
from scanner.decode.row_decision import RowDecision
from scanner.words import said
from scoring.columns import Column

ENTRIES_AGAINST = 2
"""How many doubtful entries of a row's deal, their ink's likeliest value not the rules'
value, make the read row doubtful (:func:`rows_against_entries`): one alone is the commoner
writer's slip or lost stroke. 42 TRAINING sets and 24 made after them (seeds 183-250,
71,545 fields), read without and with this rule: 61 rows made doubtful, one of them the
misread row of the module doc, every other field the same; doubtful fields +0.07 and +0.10
points, no sheet more needs a person (each such row's entries are asked already)."""
WRITTEN_AGAINST_SHARE = 0.5
"""... one of them ink that gives another number at least this share of its likelihood: a
value written, not a box read blank (a seat whose ink the image lost leaves blank boxes
against every row it whisted on; without this condition about 90 rows on the same sets,
counted from their ``scan.json``)."""


def rows_against_entries(rows: Sequence[RowDecision],
                         entries: Mapping[Column, Sequence[EntryDecision]]
                         ) -> tuple[RowDecision, ...]:
    """``rows`` with each read row made *doubtful* where its deal's entries read otherwise
    (module doc)."""
    against: Counter[int] = Counter()
    written: Counter[int] = Counter()
    for decisions in entries.values():
        for decision in decisions:
            if decision.status != "doubtful" or decision.deal is None \
                    or decision.expected is None or not decision.ink:
                continue
            value, likelihood = decision.ink[0]
            if value == decision.expected:
                continue
            against[decision.deal] += 1
            total = sum(p for _, p in decision.ink)
            if value is not None and likelihood >= WRITTEN_AGAINST_SHARE * total:
                written[decision.deal] += 1
    out = list(rows)
    deal_rows = [index for index, row in enumerate(rows) if row.deal is not None]
    for deal, index in enumerate(deal_rows, start=1):
        row = rows[index]
        if row.status == "read" and against[deal] >= ENTRIES_AGAINST and written[deal]:
            out[index] = replace(row, status="doubtful", totals_sure=False, note=said(
                "row_totals_against", count=against[deal]))
    return tuple(out)
