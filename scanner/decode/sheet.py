"""Decode a whole sheet: the deal log and the running totals, two records of the same game.

1. Each row of the contract/result column gets its legal readings (:mod:`scanner.decode.deals`).
2. Every row is checked against the running totals it writes (the totals are evidence of the
   deal: a 6 made writes 2 in the pool, one down writes the mountain and consolation). Rows
   the ink leaves unsure, rows the totals do not confirm (then with every split of their
   tricks) and rows read empty are re-ranked by how well the totals fit each reading. Where
   the ink and the totals disagree strongly the row is doubtful, and no row is left empty
   between deals. Digits whose other readings write the same totals (the defenders' split
   under one whister) are left to the ink, every such split weighed.
3. With the deal log fixed, each column is decoded against the expected sheet
   (:mod:`scanner.decode.columns`).

Every field ends *read* (with its confidence), *doubtful* (with its top candidates) or *empty*;
no field is *empty* where a seat's ink is lost from the image (:mod:`scanner.decode.faint`);
a total the writer plainly left out is *empty* (:mod:`scanner.decode.unwritten`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from forms.geometry.deal_column import SUITS
from scanner.decode.columns import (
    EntryCells,
    EntryDecision,
    column_ceiling,
    only_rises,
)
from scanner.decode.deal_logs import DealLogs
from scanner.decode.deals import RowCandidate, RowEvidence, decode_row, other_splits
from scanner.decode.faint import (
    faint_entries,
    lost_ink_problem,
)
from scanner.decode.legality import verdicts
from scanner.decode.lost_rows import illegible_unvouched
from scanner.decode.presence import (
    STRAY_INK_GAP,
    last_written,
    missing_rows_problem,
    present_column,
    row_notes,
    rows_asked,
    rules_value_shown,
)
from scanner.decode.rising import rising_value_shown
from scanner.decode.row_against import rows_against_entries
from scanner.decode.row_doubt import (
    correction_room_asked,
    doubted_with_rows,
    unsettled_otherwise,
)
from scanner.decode.row_marks import denied_calls, made_calls
from scanner.decode.row_odds import (
    INK_DISAGREES_LOG,
    ROW_READ,
    TALON_OVERRULED_LOG,
    TOTALS_READ_IT_LOG,
    UNCHECKED_READ,
)
from scanner.decode.row_pairs import better_pair
from scanner.decode.row_words import digit_fields, digits_apart, shape_of
from scanner.decode.talon_shown import talon_ink_shown
from scanner.decode.talons import (
    talon_against_entries,
    talon_checked,
    talon_moved,
    talon_taken,
    talon_unwitnessed,
    without_talon,
)
from scanner.decode.unwritten import unwritten_totals
from scanner.decode.writer_slips import slips_alike
from scanner.words import said
from scoring.columns import Column, sheet_columns
from scoring.notation import Contract, parse_contract
from scoring.record import FORMAT
from scoring.rules import RuleSet
from scoring.sheet import ExpectedSheet

RERANK_BELOW = 0.999
"""Rows whose best reading from the ink alone is less likely than this are re-ranked by the
running totals (surer rows are too when the totals do not confirm them). Stricter than
:data:`ROW_READ`: a row the ink reads at 0.999 (a talon's 2 quick tricks read 1) is still
checked against the totals, which may say otherwise."""
WITNESS_GAP = math.log(10)
"""An entry whose ink finds the total a row's reading writes there at least a tenth as likely
as its own likeliest value witnesses that reading (:meth:`DealLogs.witnessed`)."""
OVERTURNED_READ = 0.9999
"""A row whose decoded reading is not the ink's own best (the running totals overturned it)
is *read* only at this probability, else *doubtful*: the totals mislead as well as correct
when a player slipped in a column near that deal (a sample sheet's missing whist entry made
a talon's 2 quick tricks, read 2 at 0.998, a 3 at 0.9957)."""
SPLIT_NEGLIGIBLE = 1e-6
"""Odds against the pick below which another trick split is not weighed by the ink alone
(:func:`_add_alike_splits`): a row has at most 66 splits, and 66 such splits hold less than
the 2e-3 share :data:`ROW_READ` leaves, so none of them can change a row's status. A bound
on work, not a threshold on evidence."""
JOINT_PASSES = 2
PAIR_MOVES = 2
"""How many times two rows changed together (:mod:`scanner.decode.row_pairs`) start the
passes of :func:`_rank` again: a bound on work."""
SUIT_CROSSED = 0.5
"""A suit box the mark reader finds crossed at least this likely reads as crossed
(:func:`_suits_crossed`)."""
ALTERNATIVE_MIN = 1e-4
"""Row readings less likely than this (from the ink alone) are not tried against the totals."""


@dataclass(frozen=True)
class SheetEvidence:
    """Everything the recognizers saw on one sheet, page geometry already resolved."""

    rules: RuleSet
    seats: tuple[str, ...]
    rows: tuple[RowEvidence, ...]
    columns: Mapping[Column, tuple[EntryCells, ...]]
    names: Mapping[str, str] = field(default_factory=dict)
    faint: tuple[str, ...] = ()
    """Seats whose calibration strip is lost from the image (:mod:`scanner.decode.faint`)."""
    strip_page: str = ""
    """The file and page of the calibration strips, as the sheet's problems name it."""


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


@dataclass(frozen=True)
class DecodedSheet:
    """The decoded sheet: one decision per deal row and per written entry."""

    rules: RuleSet
    seats: tuple[str, ...]
    names: Mapping[str, str]
    rows: tuple[RowDecision, ...]
    entries: Mapping[Column, tuple[EntryDecision, ...]]
    problems: tuple[str, ...] = ()
    """What a person should know of the whole sheet (ink the image lost)."""

    @property
    def deals(self) -> list[dict[str, Any]]:
        """The deal log: every row that holds a deal, in order."""
        return [row.deal for row in self.rows if row.deal is not None]

    def doubtful(self) -> int:
        """How many fields need a person."""
        return sum(row.status == "doubtful" for row in self.rows) + sum(
            e.status == "doubtful" for entries in self.entries.values() for e in entries)

    def record(self) -> dict[str, Any]:
        """A ``pulka-record/1`` document; doubtful fields hold their most likely value."""
        written: dict[str, Any] = {s: {"pool": [], "mountain": [],
                                       "whists": {o: [] for o in self.seats if o != s}}
                                   for s in self.seats}
        for column in sheet_columns(self.seats):
            values = [e.value for e in self.entries.get(column, ()) if e.value is not None]
            if column.on:
                written[column.seat]["whists"][column.on] = values
            else:
                written[column.seat][column.kind] = values
        doc: dict[str, Any] = {"format": FORMAT, "rules": self.rules.settings(),
                               "seats": list(self.seats), "deals": self.deals,
                               "written": written}
        if self.names:
            doc["names"] = dict(self.names)
        return doc


def decode_sheet(evidence: SheetEvidence) -> DecodedSheet:
    """Decode the deal log and the written columns together (see module doc)."""
    legality = verdicts(evidence.rules, evidence.seats)
    candidates = [_kept(decode_row(row, evidence.rules, evidence.seats, legality))
                  for row in evidence.rows]
    logs = DealLogs(evidence.rules, evidence.seats, evidence.columns, candidates)
    ranking = _rank(evidence, logs, candidates)
    picks = tuple(ranking.chosen)
    for i in range(len(candidates)):
        _add_alike_splits(evidence, logs, candidates[i], ranking.posterior[i], picks, i)
    sheet = logs.sheet(picks, len(picks))
    entries = slips_alike({
        column: tuple(present_column(cells, sheet.column(column) if sheet else (),
                                     column_ceiling(column, evidence.rules),
                                     only_rises(column)))
        for column, cells in evidence.columns.items()})
    required, asked = rows_asked(evidence.columns, entries, sheet, evidence.faint,
                                 len(evidence.rows))
    rows = _between_deals(_stray_rows(
        [_row_checked(evidence, logs, candidates, ranking, picks, i)
         for i in range(len(candidates))], wanted=required > 0 or bool(evidence.faint)))
    rows = talon_checked(evidence, logs, candidates, picks, rows)
    rows = talon_taken(evidence, logs, candidates, picks,
                       talon_moved(evidence, logs, candidates, picks, rows))
    rows = _paired_doubted(_suits_crossed(evidence, rows), ranking.paired)
    rows = _read_as_overturned(rows, candidates, picks)
    rows = talon_against_entries(evidence, logs, candidates, picks, talon_unwitnessed(
        evidence, logs, candidates, picks, rows, entries, sheet), entries)
    notes = row_notes(evidence.rows, rows, required, asked)
    rows = tuple(replace(row, status="doubtful", note=note, confidence=row.confidence
                         if row.deal else 0.0, totals_sure=False) if note else row
                 for row, note in zip(rows, notes, strict=True))
    rows = illegible_unvouched(rows, candidates, picks)
    runner_ups = _runner_up_sheets(logs, candidates, picks, rows, evidence) if sheet else []
    entries = unwritten_totals(unsettled_otherwise(
        doubted_with_rows(entries, rows, _resting_on_doubt(runner_ups, sheet),
                          evidence.columns, sheet),
        evidence, sheet, runner_ups), evidence.columns, rows, evidence.faint)
    entries = correction_room_asked(rising_value_shown(rules_value_shown(
        faint_entries(entries, evidence.faint), evidence.columns, evidence.faint)), sheet)
    rows = talon_ink_shown(rows_against_entries(rows, entries), candidates, picks,
                           ranking.posterior)
    return DecodedSheet(evidence.rules, evidence.seats, dict(evidence.names), rows, entries,
                        lost_ink_problem(evidence.faint, evidence.seats, evidence.strip_page)
                        + missing_rows_problem(evidence.rows, notes))


def _runner_up_sheets(logs: DealLogs, candidates: list[list[RowCandidate]],
                      picks: tuple[int, ...], rows: Sequence[RowDecision],
                      evidence: SheetEvidence) -> list[tuple[int, ExpectedSheet | None]]:
    """For each *doubtful* row, its number and the expected sheet with its likeliest
    reading after its pick, the other rows as picked (``None``: they make no legal game; a
    row doubtful only in digits no total checks writes the same totals, and is left out);
    for a row the totals overturned, also the sheet with the ink's own reading, the other
    one a person weighs (a fresh TRAINING set, a pencil far photo, seed 313: a misere's
    tricks read 0 and 2 by the ink, 1 and 1 by the totals, a seat's pencil lost; the
    ink's reading writes a whists total the picked log does not, and that total, its ink
    lost too, was left out of ``scan.json``); for a pick that denies a call crossed surely
    (:func:`~scanner.decode.row_marks.denied_calls`), also the sheet with its likeliest
    reading that makes that call (a fresh TRAINING set, a far pencil photo, seed 342
    sheet 008: a whist read as a pass, the passer's whists total the whist writes, its
    pencil lost, left out of ``scan.json``)."""
    sheets: list[tuple[int, ExpectedSheet | None]] = []
    for index, row in enumerate(rows):
        if row.status != "doubtful" or row.totals_sure or not candidates[index]:
            continue
        others = [(k, option.deal) for k, option in enumerate(candidates[index])
                  if k != picks[index]]
        readings = [k for deal, _ in row.candidates if deal != row.deal
                    for k, other in others if other == deal][:1]
        if picks[index] != 0 and 0 not in readings:
            readings.append(0)
        denied = denied_calls(evidence.rows[index].marks, candidates[index][picks[index]].deal)
        readings += [k for k, deal in others
                     if k not in readings and made_calls(deal) & set(denied)][:1]
        sheets += [(row.row, logs.sheet(picks[:index] + (k,) + picks[index + 1:], index))
                   for k in readings]
    return sheets


def _resting_on_doubt(runner_ups: Sequence[tuple[int, ExpectedSheet | None]],
                      sheet: ExpectedSheet | None
                      ) -> dict[Column, dict[int, tuple[int, int | None]]]:
    """The totals (each column's deal numbers) that another reading of a *doubtful* row
    would make otherwise (``runner_ups``: :func:`_runner_up_sheets`; a reading that makes no
    legal game makes every total otherwise), each with that row's number and the total it
    would be (``None``: none, or not whole). Their values rest on
    that row's doubt (:func:`~scanner.decode.row_doubt.doubted_with_rows`)."""
    if sheet is None:
        return {}
    resting: dict[Column, dict[int, tuple[int, int | None]]] = {}
    for row, other in runner_ups:
        for column in sheet.totals.keys() | (other.totals.keys() if other else set()):
            theirs = other.totals_by_deal(column) if other else {}
            apart = sheet.deals_apart(other, column) if other else {
                deal for deal in sheet.totals_by_deal(column) if deal is not None}
            for deal in apart:
                total = theirs.get(deal)
                whole = int(total) if total is not None and total.denominator == 1 else None
                resting.setdefault(column, {}).setdefault(deal, (row, whole))
    return resting


def _kept(options: list[RowCandidate]) -> list[RowCandidate]:
    """The readings of a row the running totals weigh: those the ink finds at least
    :data:`ALTERNATIVE_MIN` likely, and its likeliest reading that holds a deal however
    unlikely (a contract not played has marks only, and a mark the reader missed must not
    make the row vanish: the totals may say a deal was there)."""
    kept = [option for option in options if option.probability >= ALTERNATIVE_MIN]
    if any(option.deal is not None for option in kept):
        return kept
    return kept + [option for option in options if option.deal is not None][:1]


@dataclass
class _Ranking:
    """Each row's pick, its readings' posterior, and how much better (log-likelihood) the
    running totals fit the best of its readings than the pick (0 for a row not weighed)."""

    chosen: list[int]
    posterior: list[list[float]]
    gaps: list[float]
    paired: dict[int, int] = field(default_factory=dict)
    """The rows changed together with another (:mod:`scanner.decode.row_pairs`), each with
    the other row of its pair."""


def _rank(evidence: SheetEvidence, logs: DealLogs, candidates: list[list[RowCandidate]]
          ) -> _Ranking:
    """Weigh rows by how well the running totals fit each reading, :data:`JOINT_PASSES`
    times over the deal log: every row the ink leaves unsure (:data:`RERANK_BELOW`), every
    row whose reading the totals do not confirm (:meth:`DealLogs.confirmed`), then with
    every split of its tricks (:func:`~scanner.decode.deals.other_splits`), and every row
    read empty that has a reading with a deal. Then the rows the totals do not confirm are
    tried two at a time (:func:`~scanner.decode.row_pairs.better_pair`), and where a pair
    of other readings fits better, the passes are made again from there (at most
    :data:`PAIR_MOVES` times)."""
    ranking = _Ranking([0] * len(candidates), [[c.probability for c in options]
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
            ranking: _Ranking, fits: dict[tuple[int, ...], float], extended: list[bool]
            ) -> list[int]:
    """:data:`JOINT_PASSES` passes of :func:`_rank` over the rows, ``ranking`` changed in
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


def _add_alike_splits(evidence: SheetEvidence, logs: DealLogs, options: list[RowCandidate],
                      posterior: list[float], picks: tuple[int, ...], index: int) -> None:
    """The other trick splits of row ``index``'s pick that the running totals cannot tell from
    it (:meth:`DealLogs.alike`), added to its ``options`` in place with the pick's posterior
    times the ink's odds of them: the ink alone weighs them, and :func:`_unchecked_digits`
    must see every one the ink finds possible, not only the few :func:`decode_row` tried
    (TRAINING part, a digit model retrained on more sheets: the defenders' "0 4", its "4"
    cut in two, read "3 1" at 1.0, the true split never weighed). Splits the ink finds
    :data:`SPLIT_NEGLIGIBLE` times less likely than the pick are left out: all of them
    together cannot move a row across :data:`ROW_READ`. The rest are added with no weight
    where the totals tell them apart; the row's posterior is normalised again."""
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


def _suits_crossed(evidence: SheetEvidence, rows: tuple[RowDecision, ...]
                   ) -> tuple[RowDecision, ...]:
    """``rows`` with each contract read whose suit box is not the only one read as crossed
    (:data:`SUIT_CROSSED`) made *doubtful*: no running total checks the suit (RULES.md §2:
    the suit sets no price), so the marks alone choose it, and where two boxes read as
    crossed (a tick misread, ink from the rows beside) the choice rests on how much surer
    the reader is of one than the other (TRAINING part, phone-distant seed 96, felt-tip
    ticks: 6D read 6S at 0.9985, the spades box read crossed at 0.9999, the diamonds
    0.92)."""
    checked = list(rows)
    for index, row in enumerate(rows):
        deal = row.deal
        if row.status != "read" or deal is None or deal.get("type") != "contract":
            continue
        bid = parse_contract(deal["contract"])
        if not isinstance(bid, Contract):
            continue
        suit = bid.suit.value
        marks = evidence.rows[index].marks
        rival = next((other for other in SUITS if other != suit
                      and marks.get(("suit", other), 0.0) >= SUIT_CROSSED), None)
        if rival is not None:
            checked[index] = replace(row, status="doubtful",
                                     note=said("suits_crossed", this=suit, that=rival))
    return tuple(checked)


def _paired_doubted(rows: tuple[RowDecision, ...], paired: Mapping[int, int]
                    ) -> tuple[RowDecision, ...]:
    """``rows`` with each row changed together with another row
    (:mod:`scanner.decode.row_pairs`) marked with that row, and made *doubtful* where read:
    each was then weighed with the other held at its new reading, and the two rest on each
    other (TRAINING part, a far photo of pencil, seed 7: a pair moved one row right and
    read the other wrong at 0.99997, its ink read poorly everywhere)."""
    marked = list(rows)
    for k, other in paired.items():
        row = replace(rows[k], paired_with=rows[other].row)
        if row.status == "read":
            row = replace(row, status="doubtful", totals_sure=False,
                          note=said("read_in_pair", row=rows[other].row + 1))
        marked[k] = row
    return tuple(marked)


def _read_as_overturned(rows: tuple[RowDecision, ...], candidates: list[list[RowCandidate]],
                        picks: tuple[int, ...]) -> tuple[RowDecision, ...]:
    """``rows`` with each row read as another row's ink reads that row, where the running
    totals overturned that row's ink and left it doubtful, made *doubtful*: the totals may
    have put two deals in each other's places (a fresh TRAINING set, a thresholded scan,
    seed 220: two all-passes of one dealer, B8 C0 D2 and later B1 C7 D2, swapped; the
    first, its ink sure, doubtful as overturned; the second, its ink unsure, read B8 C0 D2
    at 1.0 where the mountain entries between them were misread)."""
    marked = list(rows)
    for index, options in enumerate(candidates):
        if picks[index] == 0 or rows[index].status != "doubtful" or options[0].deal is None:
            continue
        for k, row in enumerate(rows):
            if k != index and row.status == "read" and row.deal == options[0].deal:
                marked[k] = replace(row, status="doubtful", totals_sure=False, note=said(
                    "read_as_overturned", row=rows[index].row + 1))
    return tuple(marked)


def _stray_rows(rows: list[RowDecision], wanted: bool) -> list[RowDecision]:
    """``rows`` with each row left *doubtful* without a deal (its ink reads as no legal deal)
    more than :data:`~scanner.decode.presence.STRAY_INK_GAP` rows past the last deal
    (:func:`~scanner.decode.presence.last_written`) decided *empty*, unless the running
    totals hold deals the log lacks or a seat's ink is lost (``wanted``): a deal there
    would have written its totals, so the ink is stray, as a blank row's is
    (:func:`~scanner.decode.presence.row_notes`), and no blank row before it is asked
    (:func:`_between_deals`). TRAINING part, far photos (seeds 271 sheets 001 and 010, 273
    sheet 007): the print's remnant on a deal page the game never reached read as no legal
    deal in rows 25-43, and the rows between them and the log's last deal were asked, 26
    to 36 blank rows a sheet."""
    if wanted:
        return rows
    last = last_written([row.deal is not None for row in rows],
                        [row.deal is not None and row.status == "read" for row in rows])
    return [replace(row, status="empty", note="")
            if k - last > STRAY_INK_GAP and row.status == "doubtful" and row.deal is None
            else row for k, row in enumerate(rows)]


def _between_deals(rows: list[RowDecision]) -> tuple[RowDecision, ...]:
    """``rows`` with each row decided empty before a row that holds a deal made *doubtful*:
    the deal log is written row after row, so an empty row among them is a deal the ink
    did not show (a tick the reader missed) or a skipped row, which a person must see. A
    deal read *doubtful* more than :data:`~scanner.decode.presence.STRAY_INK_GAP` rows
    past the others counts as stray ink does (:func:`last_written`): asked itself, it does
    not make every blank row before it doubtful (TRAINING part, a far photo, seed 96: a
    border's remnant at the foot of the sheet read as a deal at 0.20, thirty rows past the
    last deal, and the thirty blank rows between were asked). A row left doubtful without a
    deal (ink that reads as none, or totals that want one) holds a deal as much as one read
    doubtful with a deal, and a run of them (another within that many rows after it) is
    no remnant: it counts as read (TRAINING part, a far photo of pencil ticks at 76-109
    dpi, seed 211: rows 0, 3-6, 8 and 10 doubtful as no deal, rows 1, 2 and 7 read empty
    between them and left out of the sheet's fields, three deals lost silently)."""
    holds = [row.deal is not None or row.status == "doubtful" for row in rows]
    in_run = [any(holds[k + 1:k + 1 + STRAY_INK_GAP]) for k in range(len(rows))]
    last = last_written(holds, [held and (row.status == "read" or run)
                                for held, row, run in zip(holds, rows, in_run, strict=True)])
    return tuple(replace(row, status="doubtful",
                         note=said("later_row"))
                 if k < last and row.status == "empty" else row
                 for k, row in enumerate(rows))


def _row_decision(row: int, options: list[RowCandidate], posterior: list[float],
                  chosen: int, unchecked: Sequence[int] = (), totals_gap: float = 0.0,
                  confirmed: bool = True, witnessed: bool = True,
                  same_totals: Sequence[int] = (), totals_read_it: bool = False
                  ) -> RowDecision:
    """The row's status, confidence and candidates once its reading is ``chosen``:
    ``unchecked`` are its other readings that differ from it only in digits no running
    total checks (:func:`_unchecked_digits`, every such split weighed by the ink alone:
    :func:`_add_alike_splits`); where the likeliest of them makes the row doubtful, the note
    says that only the ink reads those digits. ``totals_gap`` is how much better the running
    totals fit another of its readings. Where the ink and the totals disagree strongly
    (:data:`INK_DISAGREES_LOG`, either way) the row is *doubtful*; so is a row the totals
    overturned (``chosen`` is not the ink's likeliest reading) that they do not
    ``confirmed`` either (:meth:`DealLogs.confirmed`): its posterior is shared among the
    readings weighed, and where none fits, the least bad one takes it all (TRAINING part, a
    pencil far photo, seed 67: an all-pass "9 0 1" read "0 4 6" at 1.0, the ink reading
    "2 4 4", the totals after it far from either). So is a row the totals carried from an
    unsure ink but neither confirm nor ``witnessed`` (:func:`_witnessed`; TRAINING part, a
    thresholded scan, seed 134: an all-pass C0 A5 B5 read C0 A3 B7 at 0.99998, the ink 0.90
    sure of it, every total checking it lost with a faint seat but a writer's slip one
    digit from the misread's total). A row whose ink reads as no legal deal
    (:attr:`RowCandidate.ink_gap`) is doubtful too, unless it is read at :data:`ROW_READ`
    and the totals it writes are read as written (``totals_read_it``:
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


def _row_checked(evidence: SheetEvidence, logs: DealLogs, candidates: list[list[RowCandidate]],
                 ranking: _Ranking, picks: tuple[int, ...], index: int) -> RowDecision:
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
