"""An entry the rules read over its ink is no surer than the deal row its value comes from.

The rules' value for an entry is the running total its deal writes (:mod:`scanner.decode
.columns`); where the entry is read as that value although the ink reads another (a digit
lost, ink the rules overrule), the reading rests on the deal row. Where that row is itself
*doubtful* (its ink lost, not legal, unsure), the rules' value may be as wrong as the row:
the entry is *doubtful* too, never read on the row's word (TRAINING part, a black-and-white
scan of blue ballpoint: a written 10, its 0 lost, read as the 12 a doubtful row made the
rules expect, sure at 0.9993).
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


def doubted_with_rows(entries: Mapping[Column, tuple[EntryDecision, ...]],
                      rows: Sequence[RowDecision]) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each entry read as a value its ink finds :data:`INK_AGAINST` times
    less likely than another, whose deal's row is *doubtful*, made *doubtful* (module
    doc)."""
    deal_rows = [row for row in rows if row.deal is not None]
    return {column: tuple(_doubted(decision, deal_rows) for decision in decisions)
            for column, decisions in entries.items()}


def _doubted(decision: EntryDecision, deal_rows: Sequence[RowDecision]) -> EntryDecision:
    if decision.status != "read" or decision.deal is None or not decision.ink \
            or not 0 < decision.deal <= len(deal_rows):
        return decision
    row = deal_rows[decision.deal - 1]
    ink_value, ink_p = decision.ink[0]
    if row.status != "doubtful" or \
            ink_p < INK_AGAINST * dict(decision.ink).get(decision.value, 0.0):
        return decision
    return replace(decision, status="doubtful", note=said(
        "from_doubtful_row", ink=value_said(ink_value), value=value_said(decision.value),
        row=row.row + 1))
