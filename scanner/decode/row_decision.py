"""Each deal row's decision once the running totals have weighed its readings: *read*,
*doubtful* (with the note that says why) or *empty*, with its confidence and the readings a
person is shown (:class:`RowDecision`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scanner.decode.deal_logs import DealLogs
from scanner.decode.deals import RowCandidate
from scanner.decode.row_marks import denied_calls
from scanner.decode.row_odds import (
    INK_DISAGREES_LOG,
    ROW_READ,
    TALON_OVERRULED_LOG,
    TOTALS_READ_IT_LOG,
    UNCHECKED_READ,
)
from scanner.decode.row_ranking import Ranking
from scanner.decode.row_words import digit_fields, digits_apart, shape_of
from scanner.decode.talons import without_talon
from scanner.words import said

if TYPE_CHECKING:  # the sheet's decoder imports this module
    from scanner.decode.sheet import SheetEvidence

WITNESS_GAP = math.log(10)
"""An entry whose ink finds the total a row's reading writes there at least a tenth as likely
as its own likeliest value witnesses that reading (:meth:`DealLogs.witnessed`)."""
OVERTURNED_READ = 0.9999
"""A row whose decoded reading is not the ink's own best (the running totals overturned it)
is *read* only at this probability, else *doubtful*: the totals mislead as well as correct
when a player slipped in a column near that deal (a sample sheet's missing whist entry made
a talon's 2 quick tricks, read 2 at 0.998, a 3 at 0.9957)."""


@dataclass(frozen=True)
class RowDecision:
    """The decoded deal of one row (``None``: the row is empty)."""

    row: int
    status: str
    deal: dict[str, Any] | None
    confidence: float
    candidates: tuple[tuple[dict[str, Any] | None, float], ...]
    note: str = ""
    totals_sure: bool = False
    """Doubtful only in digits no running total checks: its readings that write other
    totals than ``deal`` hold less than 1 - :data:`ROW_READ` of it, so the totals it makes
    are as sure as a read row's (:mod:`scanner.decode.row_doubt`)."""
    paired_with: int | None = None
    """The row (its number) this row was read together with (:func:`_paired_doubted`)."""


def _row_decision(row: int, options: list[RowCandidate], posterior: list[float],
                  chosen: int, unchecked: Sequence[int] = (), totals_gap: float = 0.0,
                  confirmed: bool = True, witnessed: bool = True,
                  same_totals: Sequence[int] = (), totals_read_it: bool = False
                  ) -> RowDecision:
    """The row's status, confidence and candidates once its reading is ``chosen``:
    ``unchecked`` are its other readings that differ from it only in digits no running total
    checks (:func:`_unchecked_digits`, every such split weighed by the ink alone:
    :func:`~scanner.decode.row_ranking.add_alike_splits`); where the likeliest of them makes
    the row doubtful, the note says that only the ink reads those digits. ``totals_gap`` is
    how much better the running totals fit another of its readings. Where the ink and the
    totals disagree strongly (:data:`INK_DISAGREES_LOG`, either way) the row is *doubtful*;
    so is a row the totals overturned (``chosen`` is not the ink's likeliest reading) that
    they do not ``confirmed`` either (:meth:`DealLogs.confirmed`): its posterior is shared
    among the readings weighed, and where none fits, the least bad one takes it all
    (TRAINING part, a pencil far photo, seed 67: an all-pass "9 0 1" read "0 4 6" at 1.0,
    the ink reading "2 4 4", the totals after it far from either). So is a row the totals
    carried from an unsure ink but neither confirm nor ``witnessed`` (:func:`_witnessed`;
    TRAINING part, a thresholded scan, seed 134: an all-pass C0 A5 B5 read C0 A3 B7 at
    0.99998, the ink 0.90 sure of it, every total checking it lost with a faint seat but a
    writer's slip one digit from the misread's total). A row whose ink reads as no legal
    deal (:attr:`RowCandidate.ink_gap`) is doubtful too, unless it is read at
    :data:`ROW_READ` and the totals it writes are read as written (``totals_read_it``:
    :data:`TOTALS_READ_IT_LOG`)."""
    if not options:
        return RowDecision(row, "doubtful", None, 0.0, ())
    ranked = sorted(zip(options, posterior, strict=True), key=lambda item: -item[1])
    best = options[chosen]
    confidence = posterior[chosen]
    status = "empty" if best.deal is None and confidence >= ROW_READ else \
        "read" if confidence >= ROW_READ or \
        _sure_but_unchecked(posterior, chosen, same_totals) else "doubtful"
    note = ""
    if chosen != 0 and status == "read" and (confidence < OVERTURNED_READ or not confirmed):
        status = "doubtful"
        note = said("row_overturned")
    elif status == "read" and not (confirmed or witnessed):
        status = "doubtful"
        note = said("row_unconfirmed", share=f"{best.probability:.4f}")
    unchecked_note = ""
    unsure = sum(posterior[k] for k in unchecked)
    if status == "doubtful" and not note and unchecked:
        rival = max((k for k in range(len(options)) if k != chosen), key=lambda k: posterior[k])
        if rival in unchecked:
            note = unchecked_note = said(
                "unchecked_digits", fields=digit_fields(best.deal, options[rival].deal),
                share=f"{confidence / (confidence + unsure):.4f}")
    if status == "read" and best.talon_gap > TALON_OVERRULED_LOG:
        status = "doubtful"
        quick = (best.deal or {}).get("talon", {}).get("quick_tricks", 0)
        note = said("talon_overruled", n=quick)
    if best.ink_gap > INK_DISAGREES_LOG and not (
            status == "read" and confidence >= ROW_READ and totals_read_it):
        status = "doubtful"
        note = said("not_legal")
    disagreement = _disagreement(options, chosen, totals_gap)
    if disagreement:
        status, note = "doubtful", disagreement
    if status == "doubtful" and not note:
        note = _unsure(best, confidence, [option for option, _ in ranked])
    return RowDecision(row, status, best.deal, confidence,
                       tuple((option.deal, p) for option, p in ranked[:4]), note,
                       bool(unchecked_note) and note == unchecked_note
                       and confidence + unsure >= ROW_READ)


def _sure_but_unchecked(posterior: list[float], chosen: int, same_totals: Sequence[int]
                        ) -> bool:
    """Whether the row's pick holds :data:`UNCHECKED_READ` and, with its readings that
    write every total as it does (``same_totals``: :meth:`DealLogs.same_totals`),
    :data:`ROW_READ`: the doubt left is in what no total checks and no total depends on."""
    return posterior[chosen] >= UNCHECKED_READ and \
        sum(posterior[k] for k in {chosen, *same_totals}) >= ROW_READ


def _unsure(best: RowCandidate, confidence: float, ranked: list[RowCandidate]) -> str:
    """The note of a row read below :data:`ROW_READ` that no rule explains: how sure the
    reading is and, where the next likeliest reading differs from it only in digits, which."""
    share = f"{confidence:.4f}"
    other = next((option.deal for option in ranked if option.deal != best.deal), None)
    fields = digits_apart(best.deal, other)
    return said("row_unsure_on", share=share, fields=fields) if fields else \
        said("row_unsure", share=share)


def _disagreement(options: list[RowCandidate], chosen: int, totals_gap: float) -> str:
    """A note when the ink and the running totals disagree strongly on a row
    (:data:`INK_DISAGREES_LOG` either way): the totals overturned a reading the ink finds far
    likelier, or the ink's reading stands where the totals fit another far better; ``""``
    when they agree."""
    pick, ink_best = options[chosen], options[0]
    if ink_best.log_score - pick.log_score > INK_DISAGREES_LOG:
        fields = digits_apart(ink_best.deal, pick.deal)
        return said("row_overturned_on", fields=fields) if fields else said("row_overturned")
    if totals_gap > INK_DISAGREES_LOG:
        return said("totals_fit_other")
    return ""


def row_checked(evidence: SheetEvidence, logs: DealLogs, candidates: list[list[RowCandidate]],
                ranking: Ranking, picks: tuple[int, ...], index: int) -> RowDecision:
    """Row ``index``'s decision (:func:`_row_decision`) with its pick checked against the
    running totals: whether they confirm it (:meth:`DealLogs.confirmed`) and, only where
    they do not (a confirmed row is not made doubtful for want of a witness), whether it is
    :func:`_witnessed`; its readings that write every total as it does
    (:meth:`DealLogs.same_totals`) are found once, for both. Only a pick whose ink reads as
    no legal deal is asked whether its totals read as written
    (:meth:`DealLogs.read_as_written`), and only where it makes every call crossed surely
    (:func:`~scanner.decode.row_marks.denied_calls`): the totals a reading writes say nothing
    of the whists of a defender it makes pass (TRAINING part, a fresh far pencil photo, seed
    342 sheet 008: B's whist crossed at 0.99, the row's trick digits lost, read as both
    passing at 0.9998, its one total, the declarer's pool, read as written; B's whists on
    the declarer then held a total no deal explained and A's was left out, silently. 39
    sets, about 620 sheets: one other row read denies such a call, read right)."""
    options = candidates[index]
    same = logs.same_totals(picks, index)
    confirmed = logs.confirmed(picks, index, INK_DISAGREES_LOG)
    illegal_ink = bool(options) and options[picks[index]].ink_gap > INK_DISAGREES_LOG and \
        not denied_calls(evidence.rows[index].marks, options[picks[index]].deal)
    return _row_decision(
        evidence.rows[index].row, options, ranking.posterior[index], picks[index],
        _unchecked_digits(logs, options, picks, index), ranking.gaps[index],
        confirmed, confirmed or _witnessed(logs, options, picks, index, same), same,
        illegal_ink and logs.read_as_written(picks, index, TOTALS_READ_IT_LOG))


def _witnessed(logs: DealLogs, options: list[RowCandidate], picks: tuple[int, ...],
               index: int, same_totals: Sequence[int]) -> bool:
    """Whether row ``index``'s pick holds against the reading the ink finds likeliest after
    it (a talon aside: :mod:`scanner.decode.talons` weighs the talon cell by its own
    witnesses) without the totals: the ink alone tells the two apart at :data:`ROW_READ`, or
    a total the pick writes otherwise than that reading reads as the pick writes it
    (:meth:`DealLogs.witnessed`, :data:`WITNESS_GAP`). ``True`` for a row read empty or
    with no such reading. A reading that writes every total as the pick does
    (``same_totals``: :meth:`DealLogs.same_totals`) is no rival here (no total could witness
    either; :data:`UNCHECKED_READ` weighs it)."""
    pick = options[picks[index]]
    if pick.deal is None:
        return True
    own = without_talon(pick.deal)
    same = set(same_totals)
    others = [k for k, option in enumerate(options) if k != picks[index] and k not in same
              and (option.deal is None or without_talon(option.deal) != own)]
    if not others:
        return True
    rival = max(others, key=lambda k: options[k].probability)
    share = pick.probability / (pick.probability + options[rival].probability)
    return share >= ROW_READ or logs.witnessed(picks, index, rival, WITNESS_GAP)


def _unchecked_digits(logs: DealLogs, options: list[RowCandidate], picks: tuple[int, ...],
                      index: int) -> list[int]:
    """The readings (``options``) of row ``index`` other than its pick in the deal log
    ``picks`` that differ from it only in :data:`~scanner.decode.row_words.DIGIT_FIELDS` and
    that the running totals cannot tell from it (:meth:`DealLogs.alike`): only the ink tells
    them apart."""
    own = options[picks[index]].deal if options else None
    if own is None:
        return []
    shape = shape_of(own)
    same_shape = [k for k, option in enumerate(options) if k != picks[index]
                  and option.deal is not None and shape == shape_of(option.deal)]
    if not same_shape:
        return []
    alike = logs.alike(picks, index)
    return [k for k in same_shape if k in alike]
