"""Decode a whole sheet: the deal log and the running totals, two records of the same game.

1. Each row of the contract/result column gets its legal readings (:mod:`scanner.decode.deals`).
2. Rows the ink leaves unsure are re-ranked by how well the triangle's running totals fit each
   reading (the totals are evidence of the deal: a 6 made writes 2 in the pool, one down writes
   the mountain and consolation). Digits whose other readings write the same totals (the
   defenders' split under one whister) are left to the ink, which must be surer of them.
3. With the deal log fixed, each column is decoded against the expected sheet
   (:mod:`scanner.decode.columns`).

Every field ends *read* (with its confidence), *doubtful* (with its top candidates) or *empty*.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scanner.decode.columns import (
    EntryCells,
    EntryDecision,
    decode_column,
)
from scanner.decode.deals import RowCandidate, RowEvidence, decode_row
from scanner.decode.legality import verdicts
from scoring.columns import Column, sheet_columns
from scoring.deals import Deal, make_deal
from scoring.errors import RecordError
from scoring.record import FORMAT, parse_record
from scoring.rules import RuleSet
from scoring.sheet import ExpectedSheet, SheetWriter

ROW_READ = 0.998
"""A deal row whose best reading has this probability (after the totals had their say) is
*read*; below it, *doubtful*. (0.995 let a talon's 3 quick tricks for 2 pass at 0.9957 on a
sample sheet with a player's slip nearby; on the 72 sample sheets 0.998 costs 0.5-0.7 pt
more doubtful fields and no field right.)"""
INK_DISAGREES_LOG = 6.9
"""A row whose best legal reading is this much (natural log: 1000 times) less likely than the
ink's own reading is doubtful however sure the choice among legal readings is: the ink says
something that cannot happen (a player's slip, or a misread)."""
RERANK_BELOW = 0.999
"""Rows whose best reading from the ink alone is less likely than this are re-ranked by the
running totals. Stricter than :data:`ROW_READ`: a row the ink reads at 0.999 (a talon's 2
quick tricks read 1) is still checked against the totals, which may say otherwise."""
OVERTURNED_READ = 0.9999
"""A row whose decoded reading is not the ink's own best (the running totals overturned it)
is *read* only at this probability, else *doubtful*: the totals mislead as well as correct
when a player slipped in a column near that deal (a sample sheet's missing whist entry made
a talon's 2 quick tricks, read 2 at 0.998, a 3 at 0.9957)."""
UNCHECKED_READ = 0.9995
"""A row is *read* only if its reading holds this share of the probability of the readings
that differ from it only in what its digit cells say (tricks, the talon's quick tricks) and
that the running totals cannot tell from it (:func:`_unchecked_digits`; e.g. the split of
the defenders' tricks when one whister writes for the pair, RULES.md §3): between those only
the ink decides, so it must be surer than :data:`ROW_READ` asks of a row the totals check.
Its cost on the 36 sample sheets at 200 dpi: 4 right rows more doubtful (0.12 % of 3,360
fields); at 300 dpi 7 (0.21 %); 0.9998 would make 7 and 12, 0.999 1 and 3. None of those
rows was wrong: the threshold buys a margin, since the classifier's tail probabilities are
not calibrated (a talon's 2 got 0.002 where the classifier read a 9). The marks are left to
:data:`ROW_READ`: no total checks a suit either, but every clear box keeps a chance of a
cross near 1e-4, so a suit's alternatives always hold about that much of a row (at this
threshold most rows would be doubtful), and none of the 91,872 marks read there was wrong."""
TALON_OVERRULED_LOG = math.log(10)
"""A row read whose talon cell's ink reads a digit no talon prize holds (a 9), and finds
the row's quick tricks this much less likely (natural log: ten to one), is *doubtful*
(:attr:`~scanner.decode.deals.RowCandidate.talon_gap`). Within a row nothing checks the
talon (the tricks have their sum of 10 and the result cell, the talon no such partner), and
the totals choose only between the two likeliest legal values
(:func:`~scanner.decode.deals.decode_row`), so when the ink reads none of them the value
chosen may be neither. Cost, right rows made doubtful: none of the 36 sample sheets at
200 dpi, 3 of the 36 at 300 dpi (ratios 29 to 57; any threshold from 4 to 29 flags the
same). Written after a fresh set's silent error (a 2 read as 9 at 0.986, the 2 at 0.002:
the totals made it 3 at 0.99959), which it marks."""
JOINT_PASSES = 2
ALTERNATIVE_MIN = 1e-4
"""Row readings less likely than this (from the ink alone) are not tried against the totals."""
ILLEGAL_FIT = -1e9
"""The totals' log-likelihood for a deal log the rules refuse: never chosen."""


@dataclass(frozen=True)
class SheetEvidence:
    """Everything the recognizers saw on one sheet, page geometry already resolved."""

    rules: RuleSet
    seats: tuple[str, ...]
    rows: tuple[RowEvidence, ...]
    columns: Mapping[Column, tuple[EntryCells, ...]]
    names: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RowDecision:
    """The decoded deal of one row (``None``: the row is empty)."""

    row: int
    status: str
    deal: dict[str, Any] | None
    confidence: float
    candidates: tuple[tuple[dict[str, Any] | None, float], ...]
    note: str = ""


@dataclass(frozen=True)
class DecodedSheet:
    """The decoded sheet: one decision per deal row and per written entry."""

    rules: RuleSet
    seats: tuple[str, ...]
    names: Mapping[str, str]
    rows: tuple[RowDecision, ...]
    entries: Mapping[Column, tuple[EntryDecision, ...]]

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
    candidates = [[c for c in decode_row(row, evidence.rules, evidence.seats, legality)
                   if c.probability >= ALTERNATIVE_MIN] for row in evidence.rows]
    chosen = [0] * len(candidates)
    posterior: list[list[float]] = [[c.probability for c in options] for options in candidates]
    logs = _DealLogs(evidence, candidates)
    fits: dict[tuple[int, ...], float] = {}
    for _ in range(JOINT_PASSES):
        for index, options in enumerate(candidates):
            if len(options) < 2 or posterior[index][chosen[index]] >= RERANK_BELOW:
                continue  # only rows the ink leaves unsure are re-ranked
            scores = [option.log_score + _totals_fit(logs, chosen, index, k, fits)
                      for k, option in enumerate(options)]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            posterior[index] = [w / sum(weights) for w in weights]
            chosen[index] = scores.index(top)
    picks = tuple(chosen)
    rows = tuple(_row_decision(evidence.rows[i].row, candidates[i], posterior[i], chosen[i],
                               _unchecked_digits(logs, candidates[i], picks, i))
                 for i in range(len(candidates)))
    sheet = logs.sheet(picks, len(chosen))
    entries = {column: tuple(decode_column(cells, sheet.column(column) if sheet else ()))
               for column, cells in evidence.columns.items()}
    return DecodedSheet(evidence.rules, evidence.seats, dict(evidence.names), rows, entries)


def _row_decision(row: int, options: list[RowCandidate], posterior: list[float],
                  chosen: int, unchecked: Sequence[int] = ()) -> RowDecision:
    """The row's status, confidence and candidates once its reading is ``chosen``:
    ``unchecked`` are its other readings that differ from it only in digits no running
    total checks (:func:`_unchecked_digits`), weighed by the ink alone
    (:data:`UNCHECKED_READ`)."""
    if not options:
        return RowDecision(row, "doubtful", None, 0.0, ())
    ranked = sorted(zip(options, posterior, strict=True), key=lambda item: -item[1])
    best = options[chosen]
    confidence = posterior[chosen]
    status = "empty" if best.deal is None and confidence >= ROW_READ else \
        "read" if confidence >= ROW_READ else "doubtful"
    note = ""
    if chosen != 0 and status == "read" and confidence < OVERTURNED_READ:
        status = "doubtful"
        note = "the ink reads this row otherwise; the running totals make it this"
    unsure = sum(posterior[k] for k in unchecked)
    if status == "read" and confidence < UNCHECKED_READ * (confidence + unsure):
        status = "doubtful"
        other = max(unchecked, key=lambda k: posterior[k])
        note = (f"no running total checks {_digit_fields(best.deal, options[other].deal)}: "
                f"the ink alone reads it so at {confidence / (confidence + unsure):.4f}")
    if status == "read" and best.talon_gap > TALON_OVERRULED_LOG:
        status = "doubtful"
        quick = (best.deal or {}).get("talon", {}).get("quick_tricks", 0)
        note = (f"the ink reads the talon's quick tricks as another digit; the running "
                f"totals make them {quick}")
    if best.ink_gap > INK_DISAGREES_LOG:
        status = "doubtful"
        note = "the ink does not read as a legal deal; this is the nearest one"
    return RowDecision(row, status, best.deal, confidence,
                       tuple((option.deal, p) for option, p in ranked[:4]), note)


DIGIT_FIELDS = ("tricks", "talon")
"""The fields of a record deal that the row's digit cells say (the result cells follow
from the tricks); the rest come from its marks."""


def _unchecked_digits(logs: _DealLogs, options: list[RowCandidate], picks: tuple[int, ...],
                      index: int) -> list[int]:
    """The readings (``options``) of row ``index`` other than its pick in the deal log
    ``picks`` that differ from it only in :data:`DIGIT_FIELDS` and that the running totals
    cannot tell from it (:meth:`_DealLogs.alike`): only the ink tells them apart."""
    own = options[picks[index]].deal if options else None
    if own is None:
        return []
    shape = {name: value for name, value in own.items() if name not in DIGIT_FIELDS}
    same_shape = [k for k, option in enumerate(options) if k != picks[index]
                  and option.deal is not None and shape == {
                      name: value for name, value in option.deal.items()
                      if name not in DIGIT_FIELDS}]
    if not same_shape:
        return []
    alike = logs.alike(picks, index)
    return [k for k in same_shape if k in alike]


def _digit_fields(deal: dict[str, Any] | None, other: dict[str, Any] | None) -> str:
    """What two readings of a row's digit cells disagree on, in words (for a note).

    >>> _digit_fields({"tricks": {"A": 6, "B": 3, "C": 1}},
    ...               {"tricks": {"A": 6, "B": 2, "C": 2}})
    "B's and C's tricks (3 and 1, or 2 and 2)"
    >>> _digit_fields({"talon": {"quick_tricks": 2}}, {})
    "the talon's quick tricks (2, or 0)"
    """
    deal, other = deal or {}, other or {}
    parts = []
    tricks, other_tricks = deal.get("tricks") or {}, other.get("tricks") or {}
    seats = [seat for seat in {**tricks, **other_tricks}
             if tricks.get(seat) != other_tricks.get(seat)]
    if seats:
        said = [" and ".join(str(t.get(seat, "none")) for seat in seats)
                for t in (tricks, other_tricks)]
        owners = " and ".join(seat + "'s" for seat in seats)
        parts.append(f"{owners} tricks ({said[0]}, or {said[1]})")
    quick = [d.get("talon", {}).get("quick_tricks", 0) for d in (deal, other)]
    if quick[0] != quick[1]:
        parts.append(f"the talon's quick tricks ({quick[0]}, or {quick[1]})")
    return "; ".join(parts)


def _totals_fit(logs: _DealLogs, chosen: list[int], index: int, option: int,
                fits: dict[tuple[int, ...], float]) -> float:
    """Log-likelihood of the written columns if row ``index`` held its ``option``; ``fits``
    remembers each deal log's (a later pass asks about the same ones again)."""
    picks = tuple(option if i == index else chosen[i] for i in range(len(chosen)))
    fit = fits.get(picks)
    if fit is None:
        fit = fits[picks] = logs.fit(picks, index)
    return fit


_Written = tuple[SheetWriter, int] | None
"""A writer after some rows and how many deals they held; ``None``: a row's deal is illegal
there (the rules engine refused it), and so is every deal log with these rows."""
_Course = tuple[tuple[Fraction, ...], int, bool]
"""What the amounts a deal writes depend on besides the deal
(:meth:`scoring.sheet.SheetWriter.course`)."""
_Step = tuple[tuple[tuple[Column, "int | Fraction"], ...], int]
"""What one deal writes on one course: each entry's column and amount (an ``int`` when
whole), and the course after it (its number, :meth:`_DealLogs._course_number`)."""
_Tally = tuple[int, "int | Fraction", float]
"""One column of a deal log being weighed: how many entries it holds so far, their running
total, and the log-likelihood of the column's ink at those entries, added up in order."""
_Fold = tuple[int, int, dict[Column, _Tally]] | None
"""A deal log weighed up to some row: the course after it (its number), how many deals it
held, and each column's tally; ``None``: a row's deal is illegal there."""


def _whole(amount: Fraction) -> int | Fraction:
    """An amount as an ``int`` when it is whole (the same number: quicker to add)."""
    return amount.numerator if amount.denominator == 1 else amount


class _DealLogs:
    """The expected sheets of one sheet's candidate deal logs, each a pick of one reading per
    row: as :func:`scoring.sheet.expected_sheet` of the record of the picked deals, but each
    deal is checked once per place in the log, and the rows before the one being weighed are
    written once for all of its readings (:class:`scoring.sheet.SheetWriter`)."""

    def __init__(self, evidence: SheetEvidence, candidates: list[list[RowCandidate]]) -> None:
        self._candidates = candidates
        self._spellings = {column: [entry.spelling for entry in entries]
                           for column, entries in evidence.columns.items()}
        self._blank_logs = {column: [spelling.log_probability(None) for spelling in spellings]
                            for column, spellings in self._spellings.items()}
        """Each entry's log-likelihood of holding nothing, per column (:meth:`fit` adds up
        those past a column's expected entries for every deal log it weighs)."""
        self._deals: dict[tuple[int, int, int], Deal | None] = {}
        self._prefixes: dict[tuple[int, ...], _Written] = {}
        self._courses: dict[_Course, int] = {}
        self._on_course: list[SheetWriter] = []
        self._steps: dict[tuple[int, int, int, int], _Step | None] = {}
        self._folds: dict[tuple[int, ...], _Fold] = {}
        doc = {"format": FORMAT, "rules": evidence.rules.settings(),
               "seats": list(evidence.seats), "deals": []}
        try:
            record = parse_record(doc)
        except RecordError:
            self._start: _Written = None
            self._first: _Fold = None
        else:
            self._rules, self._seats = record.rules, record.seats
            self._start = SheetWriter(record.rules, record.seats), 0
            self._first = (self._course_number(self._start[0]), 0,
                           {column: (0, 0, 0.0) for column in self._spellings})

    def sheet(self, picks: tuple[int, ...], shared: int) -> ExpectedSheet | None:
        """The expected sheet when row ``i`` holds its reading ``picks[i]``; ``None`` if the
        rows do not make a legal game. The first ``shared`` rows' state is kept for the
        next deal logs that share them."""
        written = self._written(self._prefix(picks, shared), picks, shared, len(picks))
        return None if written is None else written[0].sheet()

    def fit(self, picks: tuple[int, ...], index: int) -> float:
        """Log-likelihood of the sheet's written columns when row ``i`` holds its reading
        ``picks[i]`` (:data:`ILLEGAL_FIT` if the rows do not make a legal game), as
        :func:`~scanner.decode.columns.column_log_likelihood` of :meth:`sheet`, column by
        column in order, each column's entries added up in order.

        The rows before ``index`` are weighed once for all its readings (:meth:`_fold`);
        each later row's deal is written once per course (:meth:`_step`): two deal logs on
        the same course before a deal have it write the same amounts."""
        fold = self._fold(picks, index)
        if fold is not None:  # weighed on from there in a copy of its tallies
            fold = fold[0], fold[1], dict(fold[2])
        for row in range(index, len(picks)):
            if fold is None:
                break
            fold = self._folded(fold, row, picks[row], copy=False)
        if fold is None:
            return ILLEGAL_FIT
        tallies = fold[2]
        fits = []
        for column, blank_logs in self._blank_logs.items():
            count, _, log_likelihood = tallies[column]
            for blank_log in blank_logs[count:]:  # past the expected entries: empty
                log_likelihood += blank_log
            fits.append(log_likelihood)
        return sum(fits)

    def alike(self, picks: tuple[int, ...], index: int) -> list[int]:
        """The readings of row ``index`` the running totals cannot tell from its pick in the
        deal log ``picks``: those that write the same amounts in the same columns on the
        course the rows before it leave, and leave the same course for the rows after it
        (:meth:`scoring.sheet.SheetWriter.course`), so that every written total is the same
        whichever of them the row holds: another suit (§2: the suit sets no price), or
        another split of the defenders' tricks when one whister writes for the pair
        (greedy; gentleman: RULES.md §3, §9a). A reading the rules refuse there is not
        alike. When the rows before it make no legal game, no total checks anything and
        every reading is alike."""
        options = self._candidates[index]
        fold = self._fold(picks, index)
        if fold is None:
            return list(range(len(options)))
        course, count, _ = fold
        writes = [self._writes(index, option, course, count + 1)
                  for option in range(len(options))]
        own = writes[picks[index]]
        return [option for option, written in enumerate(writes) if written == own]

    def _writes(self, row: int, option: int, course: int, number: int
                ) -> tuple[Counter[tuple[Column, int | Fraction]], int] | None:
        """What ``option`` of ``row`` writes on ``course`` as deal ``number`` (each entry's
        column and amount, in any order) and the course after it; ``None`` if the rules
        refuse it there. An empty row writes nothing and keeps the course."""
        if self._candidates[row][option].deal is None:
            return Counter(), course
        step = self._step(row, option, course, number)
        return None if step is None else (Counter(step[0]), step[1])

    def _fold(self, picks: tuple[int, ...], stop: int) -> _Fold:
        """The deal log weighed up to row ``stop``, kept for the deal logs that share it."""
        key = picks[:stop]
        if key not in self._folds:
            known = next(k for k in range(stop, -1, -1) if k == 0 or picks[:k] in self._folds)
            fold = self._folds[picks[:known]] if known else self._first
            for row in range(known, stop):
                if fold is None:
                    break
                fold = self._folded(fold, row, picks[row], copy=True)
            self._folds[key] = fold
        return self._folds[key]

    def _folded(self, fold: tuple[int, int, dict[Column, _Tally]], row: int, option: int,
                copy: bool) -> _Fold:
        """``fold`` with ``option`` of ``row`` weighed on (its tallies changed in place
        unless ``copy``): each entry the row's deal writes in a column adds the column's
        ink at the new total (none past the column's cells, none once not whole)."""
        options = self._candidates[row]
        if not options or options[option].deal is None:
            return fold
        course, count, tallies = fold
        step = self._step(row, option, course, count + 1)
        if step is None:
            return None
        amounts, course = step
        if copy:
            tallies = dict(tallies)
        for column, amount in amounts:
            tally = tallies.get(column)
            if tally is None:
                continue  # a column the sheet has no cells for
            written, total, log_likelihood = tally
            total += amount
            spellings = self._spellings[column]
            if written < len(spellings):
                value = total if total.__class__ is int else \
                    int(total) if total.denominator == 1 else None
                log_likelihood += spellings[written].log_probability(value)
            tallies[column] = (written + 1, total, log_likelihood)
        return course, count + 1, tallies

    def _step(self, row: int, option: int, course: int, number: int) -> _Step | None:
        """What ``option`` of ``row``, deal ``number`` of the log, writes on ``course``
        (``None``: the rules refuse it), written once on a writer on that course."""
        key = (row, option, course, number)
        if key not in self._steps:
            raw = self._candidates[row][option].deal
            assert raw is not None
            deal = self._deal(row, option, number, raw)
            step: _Step | None = None
            if deal is not None:
                writer = self._on_course[course].copy()
                step = (tuple((entry.column, _whole(entry.amount))
                              for entry in writer.add(deal)),
                        self._course_number(writer))
            self._steps[key] = step
        return self._steps[key]

    def _course_number(self, writer: SheetWriter) -> int:
        """The number of ``writer``'s course (:meth:`scoring.sheet.SheetWriter.course`),
        numbered as first met; the writer is kept as the one to write on it from."""
        course = writer.course()
        number = self._courses.setdefault(course, len(self._courses))
        if number == len(self._on_course):
            self._on_course.append(writer)
        return number

    def _prefix(self, picks: tuple[int, ...], shared: int) -> _Written:
        """The first ``shared`` rows written, kept for the deal logs that share them."""
        key = picks[:shared]
        if key not in self._prefixes:
            known = next(k for k in range(shared, -1, -1) if k == 0 or picks[:k] in self._prefixes)
            resumed = self._prefixes[picks[:known]] if known else self._start
            self._prefixes[key] = self._written(resumed, picks, known, shared)
        return self._prefixes[key]

    def _written(self, start: _Written, picks: tuple[int, ...], first: int, stop: int
                 ) -> _Written:
        """``start`` (left as it is) with rows ``first`` to ``stop`` written on."""
        if start is None or first == stop:
            return start
        writer, count = start[0].copy(), start[1]
        for row in range(first, stop):
            options = self._candidates[row]
            raw = options[picks[row]].deal if options else None
            if raw is None:
                continue
            count += 1
            deal = self._deal(row, picks[row], count, raw)
            if deal is None:
                return None
            writer.add(deal)
        return writer, count

    def _deal(self, row: int, option: int, number: int, raw: dict[str, Any]) -> Deal | None:
        """Deal ``number`` of the log read from ``option`` of ``row``, checked as
        :func:`scoring.record.parse_record` checks it; ``None`` if the rules refuse it."""
        key = (row, option, number)
        if key not in self._deals:
            try:
                self._deals[key] = make_deal(
                    self._rules, self._seats, number=number, dealer=raw["dealer"],
                    kind=str(raw.get("type")), declarer=raw.get("declarer"),
                    contract=raw.get("contract"), defence=raw.get("defence"),
                    tricks=raw.get("tricks"),
                    talon_quick_tricks=raw.get("talon", {}).get("quick_tricks", 0))
            except RecordError:
                self._deals[key] = None
        return self._deals[key]
