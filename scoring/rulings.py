"""What a judge's decisions do to the audit's findings: which doubtful readings a finding rests
on (so that it waits for review), the key a ruling is kept under, and what an applied Codex
4.2.7 penalty adds to the columns the settlement is made from (RULES.md §9)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.audit import Finding
from scoring.columns import Column


def penalty_columns(finding: Finding) -> dict[Column, Fraction]:
    """What an applied 4.2.7 penalty adds to the columns the settlement is made from.

    RULES.md §9: overstated whists are taken back (the expected column already has the right
    amount) and the partner writes the same amount on the writer; overstated pool points are
    moved and the same amount goes onto the writer's mountain; a mountain written too low gets
    the amount understated on top. Empty when the finding proposes no penalty.

    >>> f = Finding("wrong_amount", Column("B", "whists", "A"), 1, 1, Fraction(10),
    ...             Fraction(8), "4.2.7", "take back 2; A may write 2 on B", "", Fraction(2))
    >>> penalty_columns(f)
    {Column(seat='A', kind='whists', on='B'): Fraction(2, 1)}
    """
    amount = finding.overstated
    if finding.penalty is None or amount is None or amount <= 0:
        return {}
    column = finding.column
    if column.kind == "whists" and column.on is not None:
        return {Column(column.on, "whists", column.seat): amount}
    return {Column(column.seat, "mountain"): amount}


def penalised(columns: Mapping[Column, Fraction], applied: list[Finding]
              ) -> dict[Column, Fraction]:
    """The columns' totals with the penalties of the ``applied`` findings added: what the
    settlement is made from once a judge applied them (:func:`penalty_columns`)."""
    totals = dict(columns)
    for finding in applied:
        for column, amount in penalty_columns(finding).items():
            totals[column] = totals.get(column, Fraction(0)) + amount
    return totals


def finding_key(finding: Finding) -> str:
    """A finding's name that stays while what it says stays: a ruling is kept under it.

    >>> finding_key(Finding("slip", Column("A", "pool"), 3, 2, Fraction(22), Fraction(20),
    ...                     "4.2.1"))
    'slip:A pool:3:2:22:20'
    """
    return ":".join(str("" if part is None else part) for part in (
        finding.kind, finding.column, finding.deal, finding.entry, finding.written,
        finding.expected))


@dataclass(frozen=True)
class Doubts:
    """The fields of a record read but not verified by a person.

    ``deals``: for each doubtful deal row, the number of the first deal at or after it (a
    doubtful row read as empty counts before the deal that follows it); ``entries``: for each
    column, the 1-based positions of its doubtful entries among the written ones, counted the
    same way.
    """

    deals: frozenset[int] = frozenset()
    entries: Mapping[Column, frozenset[int]] = field(default_factory=dict)


def rests_on(finding: Finding, doubts: Doubts) -> bool:
    """Whether a finding depends on a doubtful field, so that it waits for review.

    The rule: a finding's expected value comes from its deal's row and the running total of
    its column, which every earlier deal may change; its written value is its own cell, and
    the total it is measured from is the column's entry before it. So it rests on a doubtful
    deal row numbered at or before its deal, and on a doubtful entry of its own column at or
    before its own (any entry of the column when it has none, as for a missing entry). An
    entry no deal caused (``extra``, ``wrong_help``, or a finding naming no deal) rests on
    every doubtful row: any of them may be the deal that caused it. Doubtful fields elsewhere
    never touch a finding.

    >>> f = Finding("slip", Column("A", "pool"), 5, 3, Fraction(22), Fraction(20), "4.2.1")
    >>> rests_on(f, Doubts(frozenset({6}))), rests_on(f, Doubts(frozenset({5})))
    (False, True)
    >>> rests_on(f, Doubts(entries={Column("A", "pool"): frozenset({4})}))
    False
    >>> from dataclasses import replace
    >>> rests_on(replace(f, kind="extra"), Doubts(frozenset({6})))
    True
    """
    uncaused = finding.deal is None or finding.kind in ("extra", "wrong_help")
    deals = doubts.deals if uncaused else {d for d in doubts.deals if d <= (finding.deal or 0)}
    entries = [e for e in doubts.entries.get(finding.column, ())
               if finding.entry is None or e <= finding.entry]
    return bool(deals or entries)
