"""Two deal rows misread together, whose misreads cancel in the running totals.

The rows are weighed against the totals one at a time (:func:`scanner.decode.row_ranking.rank`):
each row's readings with every other row held at its pick. Two misreads that cancel out
(a talon's quick tricks read one too many, and a later whister's tricks one too few: the
dealer's whists on the declarer come out right again after both) hold each other in place,
since setting either right alone breaks every later total of the column the other one
still breaks. TRAINING part, a fresh far set (seed 56): both rows read at 1.0000 against
ink that read them at 0.97 and 0.43, the totals fitting the true pair 20 natural-log
units better than the misread one. So the rows the totals do not confirm are also tried
in pairs: each with every other row that has another reading the ink finds at least
:data:`PAIR_LIKELY` likely (the later misread of a pair is often confirmed: the totals
right after it are right again).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

from scanner.decode.deals import RowCandidate
from scoring.columns import Column

PAIR_READINGS = 4
"""Each row's likeliest readings (from the ink alone) tried with the other row's: a bound on
work; a reading further down the ink's list is weighed one row at a time as before."""
PAIR_LIKELY = 0.001
"""The least probability (the ink alone) of a reading other than its pick for a confirmed
row to be tried with an unconfirmed one: a bound on work (a sheet has some 40 rows). At
0.01 a talon's 2 read 1 at 0.986 (its true reading 0.002 as likely) was never tried with
the earlier doubtful row whose misread it cancelled in every later total, though the pair
put right fits 30 log units better, and was read wrong at 1.0 (TRAINING part, legacy
profile, seed 210)."""


Changed = Callable[[tuple[int, ...], int, int], "frozenset[Column] | None"]
"""The columns a row's reading writes other amounts in than the row's pick (``None``: any),
as :meth:`~scanner.decode.deal_logs.DealLogs.changed_columns` tells."""


def better_pair(candidates: Sequence[Sequence[RowCandidate]], picks: tuple[int, ...],
                unconfirmed: Sequence[int], fit: Callable[[tuple[int, ...], int], float],
                changed: Changed) -> tuple[int, ...] | None:
    """The deal log ``picks`` with an ``unconfirmed`` row and another row changed together
    where the ink and the running totals (``fit``: the totals' log-likelihood of a deal
    log, from a row on) find that likelier than ``picks``; the likeliest such, or
    ``None``. Two readings that change the amounts of no common column (``changed``), on
    the same course, change the fit each by its own: their pair is no likelier than the
    better of them alone, already weighed, and is not tried."""
    best, best_gain = None, 0.0
    pairs = _pairs(candidates, picks, unconfirmed)
    others = {row: _others(candidates, picks, row, changed)
              for row in sorted({row for pair in pairs for row in pair})}
    for first, second in pairs:
        own = (candidates[first][picks[first]].log_score
               + candidates[second][picks[second]].log_score + fit(picks, first))
        for one, other in product(others[first], others[second]):
            if one[1] is not None and other[1] is not None and not one[1] & other[1]:
                continue
            tried = tuple(one[0] if row == first else other[0] if row == second else pick
                          for row, pick in enumerate(picks))
            gain = (candidates[first][one[0]].log_score
                    + candidates[second][other[0]].log_score + fit(tried, first)) - own
            if gain > best_gain:
                best, best_gain = tried, gain
    return best


def _others(candidates: Sequence[Sequence[RowCandidate]], picks: tuple[int, ...], row: int,
            changed: Changed) -> list[tuple[int, frozenset[Column] | None]]:
    """Row ``row``'s readings among its :data:`PAIR_READINGS` likeliest other than its pick,
    each with the columns it changes."""
    return [(k, changed(picks, row, k))
            for k in range(min(PAIR_READINGS, len(candidates[row]))) if k != picks[row]]


def _pairs(candidates: Sequence[Sequence[RowCandidate]], picks: tuple[int, ...],
           unconfirmed: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs of rows to try (earlier row first): each ``unconfirmed`` row with every
    other row that has another reading at least :data:`PAIR_LIKELY` likely."""
    open_rows = [row for row, options in enumerate(candidates)
                 if any(option.probability >= PAIR_LIKELY for k, option in enumerate(options)
                        if k != picks[row])]
    return sorted({(min(row, other), max(row, other))
                   for row in unconfirmed for other in open_rows if other != row})
