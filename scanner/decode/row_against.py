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

A total read as the writer's slip on ink the reader's own misreads also reach (under
:data:`~scanner.decode.confirmed.INK_SLIP_UNCONTESTED`) witnesses against its row as an
asked one does; where the row is made doubtful, that slip is asked with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from scanner.decode.confirmed import INK_SLIP_UNCONTESTED
from scanner.decode.entries import EntryDecision
from scanner.decode.row_decision import RowDecision
from scanner.words import said, value_said
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

Entries = dict[Column, tuple[EntryDecision, ...]]


def rows_against_entries(rows: Sequence[RowDecision],
                         entries: Mapping[Column, Sequence[EntryDecision]]
                         ) -> tuple[tuple[RowDecision, ...], Entries]:
    """``rows`` with each read row made *doubtful* where its deal's entries read otherwise
    (module doc), and ``entries`` with each slip read against such a row made *doubtful*
    too: the row and those totals are checked together."""
    against: Counter[int] = Counter()
    written: Counter[int] = Counter()
    for decisions in entries.values():
        for decision in decisions:
            if decision.deal is None or not _reads_otherwise(decision):
                continue
            against[decision.deal] += 1
            value, likelihood = decision.ink[0]
            if value is not None and likelihood >= WRITTEN_AGAINST_SHARE * decision.ink_total:
                written[decision.deal] += 1
    out = list(rows)
    doubted: set[int] = set()
    deal_rows = [index for index, row in enumerate(rows) if row.deal is not None]
    for deal, index in enumerate(deal_rows, start=1):
        row = rows[index]
        if row.status == "read" and against[deal] >= ENTRIES_AGAINST and written[deal]:
            doubted.add(deal)
            out[index] = replace(row, status="doubtful", totals_sure=False, note=said(
                "row_totals_against", count=against[deal]))
    return tuple(out), {column: tuple(_slip_asked(d) if d.deal in doubted else d
                                      for d in decisions)
                        for column, decisions in entries.items()}


def _reads_otherwise(decision: EntryDecision) -> bool:
    """Whether ``decision``'s ink likeliest value is not the rules' value: a doubtful
    entry, or a slip read on ink a misread may reach (TRAINING part, seed 419 sheet 018: a
    contract's 6 read 7 at 0.994; the declarer's mountain, 5 written where the 7 makes 3,
    read as his slip at 0.99-0.997, so that only one total stood against the row, which was
    read, silently)."""
    if decision.expected is None or not decision.ink or decision.ink[0][0] == decision.expected:
        return False
    return decision.status == "doubtful" or _contestable_slip(decision)


def _contestable_slip(decision: EntryDecision) -> bool:
    """A slip read on ink under :data:`~scanner.decode.confirmed.INK_SLIP_UNCONTESTED`."""
    return decision.read_as_slip and decision.ink_share < INK_SLIP_UNCONTESTED


def _slip_asked(decision: EntryDecision) -> EntryDecision:
    """A slip read on its ink, asked with the row it reads against."""
    if not _contestable_slip(decision) or decision.expected is None:
        return decision
    return replace(decision, status="doubtful", note=said(
        "ink_expected", ink=value_said(decision.value), expected=value_said(decision.expected)))

