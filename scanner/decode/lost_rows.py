"""The running totals vouch for no illegible row where a row among the deals is lost.

A row whose ink reads as no legal deal is read where its pick holds
:data:`~scanner.decode.row_odds.ROW_READ` and the totals it writes read as written
(:meth:`~scanner.decode.deal_logs.DealLogs.read_as_written`): the boxes stand witness for
the reading the ink could not give. That witness assumes the deal log holds
every deal. Where a row before the log's last deal is lost (decided *doubtful* without a
deal: its ink read blank or as nothing legal), the log lacks that deal's totals, and the
entries that deal wrote may be taken for another deal's, one deal early or late: a
reading that writes them there reads "as written" while the deal written is another.
TRAINING part, a fresh set, a black-and-white flatbed scan of blue ballpoint (seed 430
sheet 010): an all-pass that gave B 2 tricks lost (row 10, read blank); B's mountain
4, 8, 12, 36 then fit a log with one deal more before it. Row 6, a 7S whisted by B and D
whose trick digits read as no legal split, was read with B 0 tricks (a whister's penalty
of 4 in B's mountain) at 1.0000, silently, for the B 2 written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scanner.decode.deals import RowCandidate
from scanner.decode.row_decision import RowDecision
from scanner.decode.row_odds import INK_DISAGREES_LOG
from scanner.words import said


def lost_among_deals(rows: Sequence[RowDecision]) -> list[int]:
    """The rows (their indexes) decided *doubtful* without a deal before the last row that
    holds one: deals the log lacks."""
    holding = [k for k, row in enumerate(rows) if row.deal is not None]
    last = holding[-1] if holding else -1
    return [k for k, row in enumerate(rows[:last])
            if row.deal is None and row.status == "doubtful"]


def illegible_unvouched(rows: Sequence[RowDecision], candidates: list[list[RowCandidate]],
                        picks: tuple[int, ...]) -> tuple[RowDecision, ...]:
    """``rows`` with each row read whose ink reads as no legal deal (its pick's
    :attr:`~scanner.decode.deals.RowCandidate.ink_gap` past :data:`INK_DISAGREES_LOG`) made
    *doubtful* where a row among the deals is lost (:func:`lost_among_deals`): the totals
    that read it as written may be the lost deal's (see module doc). Six of the 1,524
    TRAINING sheets read (seeds 354-431) have a row lost among the deals; read again, 13
    rows become doubtful, that misread and 12 right ones, all on sheets that asked a person
    already."""
    if not lost_among_deals(rows):
        return tuple(rows)
    return tuple(
        replace(row, status="doubtful", note=said("not_legal"), totals_sure=False)
        if row.status == "read" and row.deal is not None
        and candidates[k][picks[k]].ink_gap > INK_DISAGREES_LOG else row
        for k, row in enumerate(rows))
