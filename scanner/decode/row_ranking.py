"""Each deal row's readings weighed by the running totals: the deal log that fits best.

Rows the ink leaves unsure, rows whose reading the totals do not confirm (then with every
split of their tricks) and rows read empty are ranked again by how well the totals fit each
of their readings, the other rows held at their picks; rows the totals do not confirm are
also tried two at a time (:mod:`scanner.decode.row_pairs`). The result is each row's pick
and its readings' posterior (:class:`Ranking`), which :mod:`scanner.decode.row_decision`
turns into a status.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scanner.decode.deal_logs import DealLogs
from scanner.decode.deals import RowCandidate, other_splits
from scanner.decode.row_odds import INK_DISAGREES_LOG
from scanner.decode.row_pairs import better_pair

if TYPE_CHECKING:  # the sheet's decoder imports this module
    from scanner.decode.sheet import SheetEvidence

RERANK_BELOW = 0.999
"""Rows whose best reading from the ink alone is less likely than this are re-ranked by the
running totals (surer rows are too when the totals do not confirm them). Stricter than
:data:`~scanner.decode.row_odds.ROW_READ`: a row the ink reads at 0.999 (a talon's 2
quick tricks read 1) is still checked against the totals, which may say otherwise."""
SPLIT_NEGLIGIBLE = 1e-6
"""Odds against the pick below which another trick split is not weighed by the ink alone
(:func:`add_alike_splits`): a row has at most 66 splits, and 66 such splits hold less than
the 2e-3 share :data:`~scanner.decode.row_odds.ROW_READ` leaves, so none of them can
change a row's status. A bound on work, not a threshold on evidence."""
JOINT_PASSES = 2
PAIR_MOVES = 2
"""How many times two rows changed together (:mod:`scanner.decode.row_pairs`) start the
passes of :func:`rank` again: a bound on work."""
ALTERNATIVE_MIN = 1e-4
"""Row readings less likely than this (from the ink alone) are not tried against the totals."""


def kept(options: list[RowCandidate]) -> list[RowCandidate]:
    """The readings of a row the running totals weigh: those the ink finds at least
    :data:`ALTERNATIVE_MIN` likely, and its likeliest reading that holds a deal however
    unlikely (a contract not played has marks only, and a mark the reader missed must not
    make the row vanish: the totals may say a deal was there)."""
    kept = [option for option in options if option.probability >= ALTERNATIVE_MIN]
    if any(option.deal is not None for option in kept):
        return kept
    return kept + [option for option in options if option.deal is not None][:1]


@dataclass
class Ranking:
    """Each row's pick, its readings' posterior, and how much better (log-likelihood) the
    running totals fit the best of its readings than the pick (0 for a row not weighed)."""

    chosen: list[int]
    posterior: list[list[float]]
    gaps: list[float]
    paired: dict[int, int] = field(default_factory=dict)
    """The rows changed together with another (:mod:`scanner.decode.row_pairs`), each with
    the other row of its pair."""


def rank(evidence: SheetEvidence, logs: DealLogs, candidates: list[list[RowCandidate]]
         ) -> Ranking:
    """Weigh rows by how well the running totals fit each reading, :data:`JOINT_PASSES`
    times over the deal log: every row the ink leaves unsure (:data:`RERANK_BELOW`), every
    row whose reading the totals do not confirm (:meth:`DealLogs.confirmed`), then with
    every split of its tricks (:func:`~scanner.decode.deals.other_splits`), and every row
    read empty that has a reading with a deal. Then the rows the totals do not confirm are
    tried two at a time (:func:`~scanner.decode.row_pairs.better_pair`), and where a pair
    of other readings fits better, the passes are made again from there (at most
    :data:`PAIR_MOVES` times)."""
    ranking = Ranking([0] * len(candidates), [[c.probability for c in options]
                                               for options in candidates], [0.0] * len(candidates))
    fits: dict[tuple[int, ...], float] = {}
    extended = [False] * len(candidates)
    for _ in range(PAIR_MOVES + 1):
        unconfirmed = _passes(evidence, logs, candidates, ranking, fits, extended)
        moved = better_pair(candidates, tuple(ranking.chosen), unconfirmed,
                            lambda picks, index: _fit(logs, picks, index, fits),
                            logs.changed_columns)
        if moved is None:
            break
        first, second = (row for row, pick in enumerate(moved) if pick != ranking.chosen[row])
        ranking.paired |= {first: second, second: first}
        ranking.chosen[:] = moved
    return ranking


def _passes(evidence: SheetEvidence, logs: DealLogs, candidates: list[list[RowCandidate]],
            ranking: Ranking, fits: dict[tuple[int, ...], float], extended: list[bool]
            ) -> list[int]:
    """:data:`JOINT_PASSES` passes of :func:`rank` over the rows, ``ranking`` changed in
    place; the rows whose pick holds a deal the totals did not confirm in the last pass."""
    chosen, posterior = ranking.chosen, ranking.posterior
    unconfirmed: list[int] = []
    for _ in range(JOINT_PASSES):
        unconfirmed = []
        for index, options in enumerate(candidates):
            if not options:
                continue
            pick = options[chosen[index]]
            sure = posterior[index][chosen[index]] >= RERANK_BELOW
            confirmed = pick.deal is None or logs.confirmed(tuple(chosen), index,
                                                            INK_DISAGREES_LOG)
            if not confirmed:
                unconfirmed.append(index)
            if not confirmed and not extended[index]:
                extended[index] = True
                _add_splits(evidence, logs, tuple(chosen), index, options, posterior[index])
            if len(options) < 2 or (sure and confirmed and pick.deal is not None):
                continue
            totals = [_totals_fit(logs, chosen, index, k, fits) for k in range(len(options))]
            scores = [option.log_score + fit for option, fit in zip(options, totals, strict=True)]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            posterior[index] = [w / sum(weights) for w in weights]
            chosen[index] = scores.index(top)
            ranking.gaps[index] = max(totals) - totals[chosen[index]]
    return unconfirmed


def _add_splits(evidence: SheetEvidence, logs: DealLogs, picks: tuple[int, ...], index: int,
                options: list[RowCandidate], posterior: list[float]) -> None:
    """The other trick splits of row ``index``'s reading in the deal log ``picks`` that fit
    the entries right after the row better than that reading
    (:meth:`DealLogs.entry_fit`), added to its ``options`` (and ``posterior``) in place,
    each deal once: the totals weigh them with the rest of the sheet."""
    pick = options[picks[index]]
    if pick.deal is None:
        return
    own = logs.entry_fit(picks, index, pick.deal)
    known = [option.deal for option in options]
    for split in other_splits(evidence.rows[index], pick, evidence.rules, evidence.seats):
        if split.deal not in known and logs.entry_fit(picks, index, split.deal or {}) > own:
            options.append(split)
            posterior.append(split.probability)


def add_alike_splits(evidence: SheetEvidence, logs: DealLogs, options: list[RowCandidate],
                     posterior: list[float], picks: tuple[int, ...], index: int) -> None:
    """The other trick splits of row ``index``'s pick that the running totals cannot tell
    from it (:meth:`DealLogs.alike`), added to its ``options`` in place with the pick's
    posterior times the ink's odds of them: the ink alone weighs them, and
    :func:`~scanner.decode.row_decision._unchecked_digits` must see every one the ink finds
    possible, not only the few :func:`decode_row` tried (TRAINING part, a digit model
    retrained on more sheets: the defenders' "0 4", its "4" cut in two, read "3 1" at 1.0,
    the true split never weighed). Splits the ink finds :data:`SPLIT_NEGLIGIBLE` times less
    likely than the pick are left out: all of them together cannot move a row across
    :data:`~scanner.decode.row_odds.ROW_READ`. The rest are added with no weight where the
    totals tell them apart; the row's posterior is normalised again."""
    pick = options[picks[index]] if options else None
    if pick is None or pick.deal is None:
        return
    known = [option.deal for option in options]
    odds_of: dict[int, float] = {}  # each added split's place in ``options``: its ink's odds
    for split in other_splits(evidence.rows[index], pick, evidence.rules, evidence.seats):
        odds = math.exp(split.log_score - pick.log_score)
        if split.deal not in known and odds >= SPLIT_NEGLIGIBLE:
            odds_of[len(options)] = odds
            options.append(split)
            posterior.append(0.0)
            known.append(split.deal)
    if not odds_of:
        return
    for k in logs.alike(picks, index):
        if k in odds_of:
            posterior[k] = posterior[picks[index]] * odds_of[k]
    total = sum(posterior)
    posterior[:] = [p / total for p in posterior]


def _totals_fit(logs: DealLogs, chosen: list[int], index: int, option: int,
                fits: dict[tuple[int, ...], float]) -> float:
    """Log-likelihood of the written columns if row ``index`` held its ``option``."""
    return _fit(logs, tuple(option if i == index else chosen[i] for i in range(len(chosen))),
                index, fits)


def _fit(logs: DealLogs, picks: tuple[int, ...], index: int,
         fits: dict[tuple[int, ...], float]) -> float:
    """:meth:`DealLogs.fit` of the deal log ``picks`` from row ``index`` on; ``fits``
    remembers each deal log's (a later pass asks about the same ones again)."""
    fit = fits.get(picks)
    if fit is None:
        fit = fits[picks] = logs.fit(picks, index)
    return fit
