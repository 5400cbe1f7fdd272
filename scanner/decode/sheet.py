"""Decode a whole sheet: the deal log and the running totals, two records of the same game.

1. Each row of the contract/result column gets its legal readings (:mod:`scanner.decode.deals`).
2. Every row is checked against the running totals it writes (the totals are evidence of the
   deal: a 6 made writes 2 in the pool, one down writes the mountain and consolation). Rows
   the ink leaves unsure, rows the totals do not confirm (then with every split of their
   tricks) and rows read empty are re-ranked by how well the totals fit each reading
   (:mod:`scanner.decode.row_ranking`). Where the ink and the totals disagree strongly the
   row is doubtful (:mod:`scanner.decode.row_decision`), and no row is left empty between
   deals. Digits whose other readings write the same totals (the defenders' split
   under one whister) are left to the ink, every such split weighed.
3. With the deal log fixed, each column is decoded against the expected sheet
   (:mod:`scanner.decode.columns`).

Every field ends *read* (with its confidence), *doubtful* (with its top candidates) or *empty*;
no field is *empty* where a seat's ink is lost from the image (:mod:`scanner.decode.faint`);
a total the writer plainly left out is *empty* (:mod:`scanner.decode.unwritten`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from forms.geometry.deal_column import SUITS
from scanner.decode.columns import only_rises
from scanner.decode.deal_logs import DealLogs
from scanner.decode.deals import RowCandidate, RowEvidence, decode_row
from scanner.decode.entries import EntryCells, EntryDecision
from scanner.decode.faint import (
    faint_entries,
    lost_ink_problem,
)
from scanner.decode.legality import verdicts
from scanner.decode.lost_rows import illegible_unvouched
from scanner.decode.past_pool import column_ceiling
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
from scanner.decode.row_decision import RowDecision, row_checked
from scanner.decode.row_doubt import (
    Resting,
    correction_room_asked,
    doubted_with_rows,
    unsettled_otherwise,
)
from scanner.decode.row_marks import denied_calls, made_calls
from scanner.decode.row_ranking import add_alike_splits, kept, rank
from scanner.decode.talon_shown import talon_ink_shown
from scanner.decode.talons import (
    talon_against_entries,
    talon_checked,
    talon_moved,
    talon_taken,
    talon_unwitnessed,
)
from scanner.decode.unwritten import unwritten_totals
from scanner.decode.writer_slips import slips_alike, with_writers_digits
from scanner.words import said
from scoring.columns import Column, sheet_columns
from scoring.notation import Contract, parse_contract
from scoring.record import FORMAT
from scoring.rules import RuleSet
from scoring.sheet import ExpectedSheet

SUIT_CROSSED = 0.5
"""A suit box the mark reader finds crossed at least this likely reads as crossed
(:func:`_suits_crossed`)."""

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
    cut_faint: bool = False
    """Whether the faint seats' boxes were cut at the faint floors
    (:data:`~scanner.constants.INK_FAINT_SEAT_FLOORS`): their ink is read out of the
    paper's grain."""
    columns_fine: bool = False
    """Whether the columns' page is fine (:data:`~scanner.constants.INK_FINE_PAGE_PX_PER_MM`)
    and in grey or colour: a written digit other than 1 leaves a trace there
    (:func:`~scanner.decode.unwritten.lost_whole`)."""


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
    candidates = [kept(decode_row(row, evidence.rules, evidence.seats, legality))
                  for row in evidence.rows]
    logs = DealLogs(evidence.rules, evidence.seats, evidence.columns, candidates)
    ranking = rank(evidence, logs, candidates)
    picks = tuple(ranking.chosen)
    for i in range(len(candidates)):
        add_alike_splits(evidence, logs, candidates[i], ranking.posterior[i], picks, i)
    sheet = logs.sheet(picks, len(picks))
    entries = slips_alike(_columns_decoded(evidence, sheet))
    required, asked = rows_asked(evidence.columns, entries, sheet, evidence.faint,
                                 len(evidence.rows))
    rows = _between_deals(_stray_rows(
        [row_checked(evidence, logs, candidates, ranking, picks, i)
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
        evidence, sheet, runner_ups), evidence.columns, rows, evidence.faint,
        evidence.columns_fine)
    entries = correction_room_asked(rising_value_shown(rules_value_shown(
        faint_entries(entries, evidence.faint, evidence.cut_faint), evidence.columns,
        evidence.faint)), sheet)
    rows, entries = rows_against_entries(rows, entries)
    rows = talon_ink_shown(rows, candidates, picks, ranking.posterior)
    return DecodedSheet(evidence.rules, evidence.seats, dict(evidence.names), rows, entries,
                        lost_ink_problem(evidence.faint, evidence.seats, evidence.strip_page)
                        + missing_rows_problem(evidence.rows, notes))


def _columns_decoded(evidence: SheetEvidence, sheet: ExpectedSheet | None
                     ) -> dict[Column, tuple[EntryDecision, ...]]:
    """Each column decoded against ``sheet``, its writer's digits read right elsewhere
    known where it asks about one misread repeated (:func:`with_writers_digits`)."""
    def decode(column: Column, witnessed: frozenset[str] = frozenset()
               ) -> tuple[EntryDecision, ...]:
        return tuple(present_column(evidence.columns[column],
                                    sheet.column(column) if sheet else (),
                                    column_ceiling(column, evidence.rules),
                                    only_rises(column), witnessed))

    return with_writers_digits({column: decode(column) for column in evidence.columns}, decode)


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
                      sheet: ExpectedSheet | None) -> dict[Column, dict[int, Resting]]:
    """The totals (each column's deal numbers) that another reading of a *doubtful* row
    would make otherwise (``runner_ups``: :func:`_runner_up_sheets`; a reading that makes no
    legal game makes every total otherwise), each with every such row's number and the
    total its reading would make (``None``: none, or not whole). Their values rest on those
    rows' doubt (:func:`~scanner.decode.row_doubt.doubted_with_rows`). A total two doubtful
    rows make otherwise rests on both (a fresh TRAINING set, a distant photo, seed 456 sheet
    022: a misere's tricks doubtful, its other reading making the declarer's mountain 48,
    the written value, for the 68 read; an earlier doubtful row's other reading made it 78,
    only that was kept, and the 68, its ink 48 at 0.64 and 68 at 0.16, was read at
    0.9991). The 282 TRAINING sheets with two doubtful rows or more (seeds 354-459) read
    again: 17 entries asked, that one and 16 read right, all on sheets that asked a person
    already."""
    if sheet is None:
        return {}
    resting: dict[Column, dict[int, Resting]] = {}
    for row, other in runner_ups:
        for column in sheet.totals.keys() | (other.totals.keys() if other else set()):
            theirs = other.totals_by_deal(column) if other else {}
            apart = sheet.deals_apart(other, column) if other else {
                deal for deal in sheet.totals_by_deal(column) if deal is not None}
            for deal in apart:
                total = theirs.get(deal)
                whole = int(total) if total is not None and total.denominator == 1 else None
                known = resting.setdefault(column, {}).get(deal, ())
                if (row, whole) not in known:
                    resting[column][deal] = (*known, (row, whole))
    return resting


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
