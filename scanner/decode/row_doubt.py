"""An entry the rules read over its ink is no surer than the deal row its value comes from.

The rules' value for an entry is the running total its deal writes (:mod:`scanner.decode
.columns`); where the entry is read as that value although the ink reads another (a digit
lost, ink the rules overrule), the reading rests on the deal row. Where that row is itself
*doubtful* (its ink lost, not legal, unsure), the rules' value may be as wrong as the row:
the entry is *doubtful* too, never read on the row's word (TRAINING part, a black-and-white
scan of blue ballpoint: a written 10, its 0 lost, read as the 12 a doubtful row made the
rules expect, sure at 0.9993); a row doubtful only in digits no total checks (the
defenders' split under one whister) writes the same totals whichever way they read, and
vouches as a read row does. Where the deal rows' ink is lost from the image, so is an
entry whose ink reads the rules' value but is unsure of it: its row was read from what
little ink is left, perhaps so as to fit that entry (TRAINING part, pencil thresholded: a 4
read 14 at 0.86, the doubtful row's 14 making it sure at 0.9999). Elsewhere a doubtful row
is asked about for its own reasons, and the rules may still choose between the values an
unsure ink leaves (made doubtful too, 76 right entries more in 8,000 fields of the
TRAINING part's seeds 7, 41, 51, 61, 81, for that one silent error).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from scanner.decode.columns import EntryDecision
from scanner.words import said, value_said
from scoring.columns import Column

if TYPE_CHECKING:  # the sheet's decoder imports this module
    from scanner.decode.sheet import RowDecision

INK_AGAINST = 10.0
"""How many times likelier the ink must find another value than the one read for the read
value to rest on the rules alone (below it the ink is merely unsure between them, and the
rules choose, as they may)."""
INK_ALONE = 0.99
"""The share of its ink's likelihood an entry's value needs for the entry to be read where
its deal row is doubtful and the deal rows' ink lost: the row cannot vouch for it."""


def doubted_with_rows(entries: Mapping[Column, tuple[EntryDecision, ...]],
                      rows: Sequence[RowDecision], rows_lost: bool = False
                      ) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each entry whose deal's row is *doubtful* made *doubtful* where its
    ink finds another value :data:`INK_AGAINST` times likelier than the one read, or, the
    deal rows' ink ``rows_lost``, gives the one read less than :data:`INK_ALONE` of its
    likelihood (module doc)."""
    deal_rows = [row for row in rows if row.deal is not None]
    return {column: tuple(_doubted(decision, deal_rows, rows_lost) for decision in decisions)
            for column, decisions in entries.items()}


def _doubted(decision: EntryDecision, deal_rows: Sequence[RowDecision], rows_lost: bool
             ) -> EntryDecision:
    if decision.status != "read" or decision.deal is None or not decision.ink \
            or not 0 < decision.deal <= len(deal_rows):
        return decision
    row = deal_rows[decision.deal - 1]
    if row.status != "doubtful" or row.totals_sure:
        return decision
    ink_value, ink_p = decision.ink[0]
    read_p = dict(decision.ink).get(decision.value, 0.0)
    if ink_p >= INK_AGAINST * read_p:
        return replace(decision, status="doubtful", note=said(
            "from_doubtful_row", ink=value_said(ink_value), value=value_said(decision.value),
            row=row.row + 1))
    if rows_lost and read_p < INK_ALONE * sum(p for _, p in decision.ink):
        return replace(decision, status="doubtful", note=said(
            "unsure_from_doubtful_row", value=value_said(decision.value), row=row.row + 1))
    return decision
