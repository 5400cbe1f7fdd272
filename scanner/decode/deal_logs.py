"""The expected sheets of one sheet's candidate deal logs, weighed against the written columns.

A deal log is a pick of one reading per row of the contract/result column. :class:`DealLogs`
writes each pick as :func:`scoring.sheet.expected_sheet` would, sharing the work between picks
that agree on their first rows, and tells how well the written columns' ink fits each one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from scanner.decode.deals import RowCandidate
from scanner.decode.entries import EntryCells
from scanner.decode.steps import step_log_likelihood
from scoring.columns import Column
from scoring.deals import Deal, make_deal
from scoring.errors import RecordError
from scoring.record import FORMAT, parse_record
from scoring.rules import RuleSet
from scoring.sheet import ExpectedSheet, SheetEntry, SheetWriter

ILLEGAL_FIT = -1e9
"""The totals' log-likelihood for a deal log the rules refuse: never chosen."""

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


class DealLogs:
    """The expected sheets of one sheet's candidate deal logs, each a pick of one reading per
    row: as :func:`scoring.sheet.expected_sheet` of the record of the picked deals, but each
    deal is checked once per place in the log, and the rows before the one being weighed are
    written once for all of its readings (:class:`scoring.sheet.SheetWriter`)."""

    def __init__(self, rules: RuleSet, seats: Sequence[str],
                 columns: Mapping[Column, Sequence[EntryCells]],
                 candidates: list[list[RowCandidate]]) -> None:
        self._candidates = candidates
        self._entries = columns
        self._spellings = {column: [entry.spelling for entry in entries]
                           for column, entries in columns.items()}
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
        doc = {"format": FORMAT, "rules": rules.settings(), "seats": list(seats), "deals": []}
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
        :func:`column_log_likelihood` of :meth:`sheet`, column by
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
        return self._writing_alike(fold, picks, index)

    def same_totals(self, picks: tuple[int, ...], index: int) -> list[int]:
        """:meth:`alike`, where the running totals weigh row ``index`` at all: ``[]`` where
        the rows before it make no legal game or the rules refuse its pick there (then no
        reading writes what the pick does, and "alike" says nothing of the totals)."""
        fold = self._fold(picks, index)
        return [] if fold is None else self._writing_alike(fold, picks, index, refused=False)

    def _writing_alike(self, fold: tuple[int, int, dict[Column, _Tally]],
                       picks: tuple[int, ...], index: int, refused: bool = True) -> list[int]:
        """The readings of row ``index`` that write what its pick writes on ``fold``'s
        course; where the rules refuse the pick there, the readings they refuse too, or
        none unless ``refused``."""
        course, count, _ = fold
        writes = [self._writes(index, option, course, count + 1)
                  for option in range(len(self._candidates[index]))]
        own = writes[picks[index]]
        if own is None and not refused:
            return []
        return [option for option, written in enumerate(writes) if written == own]

    def confirmed(self, picks: tuple[int, ...], index: int, tolerance: float) -> bool:
        """Whether the running totals confirm row ``index``'s reading in the deal log
        ``picks``: the entries it writes, on the course the rows before it leave, find its
        totals no more than ``tolerance`` (natural log, all of them together) less likely
        than the values their ink reads likeliest (entries past a column's cells, or not
        whole, are not asked). An empty reading writes nothing and is confirmed by
        nothing; when the rows before it make no legal game nothing checks it either way
        (``True``)."""
        if self._fold(picks, index) is None:
            return True
        gaps = self._entry_gaps(picks, index)
        return gaps is not None and sum(gaps.values()) <= tolerance

    def read_as_written(self, picks: tuple[int, ...], index: int, tolerance: float) -> bool:
        """Whether row ``index``'s reading in the deal log ``picks`` writes at least one
        running total and the ink of those it writes reads them, all together, no more than
        ``tolerance`` (natural log) less likely than its own likeliest values (entries asked
        as :meth:`confirmed` asks them): the totals' own ink, not only the totals' course,
        says what the row says."""
        gaps = self._entry_gaps(picks, index)
        return gaps is not None and bool(gaps) and sum(gaps.values()) <= tolerance

    def witnessed(self, picks: tuple[int, ...], index: int, rival: int, tolerance: float
                  ) -> bool:
        """Whether some entry that row ``index``'s reading writes otherwise than its reading
        ``rival`` would (:meth:`changed_columns`) finds the reading's total no more than
        ``tolerance`` less likely than the value its ink reads likeliest (entries asked as
        :meth:`confirmed` asks them): a total at least reads as that reading writes it."""
        gaps = self._entry_gaps(picks, index)
        apart = self.changed_columns(picks, index, rival)
        return gaps is not None and any(gap <= tolerance for column, gap in gaps.items()
                                        if apart is None or column in apart)

    def step_odds(self, picks: tuple[int, ...], index: int, option: int) -> float:
        """How much likelier (natural log) the steps of the written columns
        (:func:`~scanner.decode.steps.step_log_likelihood`) find row ``index``'s reading
        ``option`` than its pick in the deal log ``picks``, on the course the rows before it
        leave: each column in which both write an entry, of other amounts, weighed at that
        entry (0 where the rows before it make no legal game, either is an empty row or the
        rules refuse either)."""
        fold = self._fold(picks, index)
        options = self._candidates[index]
        if fold is None or options[option].deal is None or options[picks[index]].deal is None:
            return 0.0
        course, count, tallies = fold
        own = self._step(index, picks[index], course, count + 1)
        other = self._step(index, option, course, count + 1)
        if own is None or other is None:
            return 0.0
        theirs = dict(other[0])
        odds = 0.0
        for column, amount in own[0]:
            if column not in theirs or theirs[column] == amount or column not in tallies:
                continue
            entries = self._entries.get(column, ())
            position = tallies[column][0]
            mine = step_log_likelihood(entries, position, amount)
            rival = step_log_likelihood(entries, position, theirs[column])
            if mine is not None and rival is not None:
                odds += rival - mine
        return odds

    def _entry_gaps(self, picks: tuple[int, ...], index: int) -> dict[Column, float] | None:
        """For each entry row ``index``'s reading writes (:meth:`confirmed`), by column, how
        much less likely (natural log) its ink finds that total than its own likeliest
        value; ``None`` where the reading writes nothing legal (an empty row, a refused
        deal) or the rows before it make no legal game."""
        fold = self._fold(picks, index)
        if fold is None or self._candidates[index][picks[index]].deal is None:
            return None
        course, count, tallies = fold
        step = self._step(index, picks[index], course, count + 1)
        if step is None:
            return None
        gaps: dict[Column, float] = {}
        for column, amount in step[0]:
            tally = tallies.get(column)
            entries = self._entries.get(column, ())
            if tally is None or tally[0] >= len(entries):
                continue
            total, entry = tally[1] + amount, entries[tally[0]]
            if total == int(total):  # an entry whose ink reads no value likeliest: blank
                likeliest = entry.likeliest[0] if entry.likeliest else None
                gaps[column] = entry.spelling.log_probability(likeliest) - \
                    entry.spelling.log_probability(int(total))
        return gaps

    def changed_columns(self, picks: tuple[int, ...], index: int, option: int
                        ) -> frozenset[Column] | None:
        """The columns in which ``option`` of row ``index`` writes other amounts than its
        pick in the deal log ``picks`` (on the course the rows before it leave); ``None``
        where it may change any later total: the rows before it make no legal game, either
        reading is refused there or is an empty row, or the two leave different courses."""
        fold = self._fold(picks, index)
        options = self._candidates[index]
        if fold is None or options[option].deal is None or options[picks[index]].deal is None:
            return None
        course, count, _ = fold
        own = self._writes(index, picks[index], course, count + 1)
        other = self._writes(index, option, course, count + 1)
        if own is None or other is None or own[1] != other[1]:
            return None
        apart = (own[0] - other[0]) + (other[0] - own[0])
        return frozenset(column for column, _ in apart)

    def entry_fit(self, picks: tuple[int, ...], index: int, raw: dict[str, Any]) -> float:
        """Log-likelihood of the entries the deal ``raw`` would write as row ``index`` of the
        deal log ``picks`` (those entries only, on the course the rows before it leave):
        how well the totals right after it fit it (:data:`ILLEGAL_FIT` if the rules refuse
        it there; 0 when the rows before it make no legal game)."""
        fold = self._fold(picks, index)
        if fold is None:
            return 0.0
        course, count, tallies = fold
        deal = self._made(count + 1, raw)
        if deal is None:
            return ILLEGAL_FIT
        fit = 0.0
        for entry in self._on_course[course].copy().add(deal):
            tally = tallies.get(entry.column)
            spellings = self._spellings.get(entry.column, ())
            if tally is None or tally[0] >= len(spellings):
                continue
            total = tally[1] + entry.amount
            fit += spellings[tally[0]].log_probability(
                int(total) if total == int(total) else None)
        return fit

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
        """Deal ``number`` of the log read from ``option`` of ``row`` (:meth:`_made`)."""
        key = (row, option, number)
        if key not in self._deals:
            self._deals[key] = self._made(number, raw)
        return self._deals[key]

    def _made(self, number: int, raw: dict[str, Any]) -> Deal | None:
        """Deal ``number`` of the log read as ``raw``, checked as
        :func:`scoring.record.parse_record` checks it; ``None`` if the rules refuse it."""
        try:
            return make_deal(
                self._rules, self._seats, number=number, dealer=raw["dealer"],
                kind=str(raw.get("type")), declarer=raw.get("declarer"),
                contract=raw.get("contract"), defence=raw.get("defence"),
                tricks=raw.get("tricks"),
                talon_quick_tricks=raw.get("talon", {}).get("quick_tricks", 0))
        except RecordError:
            return None


def column_log_likelihood(entries: Sequence[EntryCells], expected: Sequence[SheetEntry]
                          ) -> float:
    """How well a column's ink fits the expected entries: the log of the probability of the
    ink when the writer wrote the expected totals. Used to choose between deal readings.

    The end-of-game correction (an entry of no deal) is left out, as the written columns
    leave it out (RECORD.md ``written``: what was written during play): counted, it made a
    blank cell expect it, and every reading that ends the game lost to one that does not
    (a right 9NT read as 6NT at 0.99999998 on a synthetic Leningrad sheet)."""
    return totals_log_likelihood(entries, [e.total for e in expected if e.deal is not None])


def totals_log_likelihood(entries: Sequence[EntryCells], totals: Sequence[Fraction]) -> float:
    """:func:`column_log_likelihood` from the expected totals alone, in the column's order
    (an entry past them, or whose total is no whole number, was expected empty)."""
    log_likelihood = 0.0
    for index, entry in enumerate(entries):
        value = int(totals[index]) if index < len(totals) and \
            totals[index].denominator == 1 else None
        log_likelihood += entry.spelling.log_probability(value)
    return log_likelihood
