"""Play a deal log through and produce the expected sheet (RULES.md §6, Codex 4.2.1-4.2.3).

:func:`expected_sheet` writes every column's running totals in the order they would be
written, each entry tied to the deal that caused it: one entry per column per deal that
changed it (RECORD.md). Pool points go through the closing of the pool: once a player's pool
is full they help the largest open pool (ties: the next seat clockwise, 4.2.3), the helper
writing 10 whists per point on the helped; when nobody can be helped they come off the own
mountain, even below zero (4.1.1). Leningrad does not help: at the end each point over the
size comes off the mountain twice and each point short goes onto it twice (4.2.3.3).

Codex 4.2.3.3 (Leningrad to 50, all at 48, one plays an 8: he writes off 8, the other two add
4 each), at a pool of 4: all at 2, A plays an 8 (pool 8).

>>> from scoring.record import parse_record
>>> doc = {"format": "pulka-record/1", "seats": ["A", "B", "C"],
...        "rules": {"variant": "leningrad", "players": 3, "pool": 4},
...        "deals": [{"type": "contract", "declarer": d, "contract": "6S",
...                   "defence": {o: "pass" for o in "ABC" if o != d}} for d in "BCA"]
...        + [{"type": "contract", "declarer": "A", "contract": "8S",
...            "defence": {"B": "pass", "C": "pass"}}]}
>>> sheet = expected_sheet(parse_record(doc))
>>> for entry in sheet.entries:
...     if entry.deal is None:
...         print(entry)
A mountain -8 = -8 (end of game)
B mountain +4 = 4 (end of game)
C mountain +4 = 4 (end of game)
>>> sheet.finished
True
"""

from __future__ import annotations

import copy
import functools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from scoring.columns import Column, sheet_columns
from scoring.deal_scoring import Posting, score_deal
from scoring.deals import Deal
from scoring.reasons import said
from scoring.record import GameRecord
from scoring.rules import RuleSet

HELP_WHISTS_PER_POINT = 10
"""Whists the helper writes on the helped player per pool point of help (RULES.md §6)."""


@dataclass(frozen=True)
class SheetEntry:
    """One running total written into a column; ``deal`` is the deal's number (1-based), or
    ``None`` for the end-of-game correction."""

    column: Column
    deal: int | None
    amount: Fraction
    total: Fraction
    reasons: tuple[str, ...] = ()

    def __str__(self) -> str:
        when = f"deal {self.deal}" if self.deal is not None else "end of game"
        return f"{self.column} {_signed(self.amount)} = {self.total} ({when})"


@dataclass(frozen=True)
class ExpectedSheet:
    """The sheet as the rules write it: entries in order, and the final totals during play.

    ``totals`` are the columns' totals before the end-of-game correction (RECORD.md
    ``columns``); ``finished`` says whether the pool was closed (or stopped by consent);
    ``ended_with`` is the number of the deal that closed the pool; ``warnings`` name deals
    recorded after the game had ended.
    """

    seats: tuple[str, ...]
    entries: tuple[SheetEntry, ...]
    totals: dict[Column, Fraction]
    finished: bool
    ended_with: int | None = None
    warnings: tuple[str, ...] = ()

    def column(self, column: Column) -> tuple[SheetEntry, ...]:
        """The entries of one column, in the order written."""
        return self._by_column.get(column, ())

    def totals_by_deal(self, column: Column) -> dict[int | None, Fraction]:
        """One column's running totals by the number of the deal that wrote them."""
        return {entry.deal: entry.total for entry in self.column(column)}

    def deals_apart(self, other: ExpectedSheet, column: Column) -> frozenset[int]:
        """The deals whose running total in ``column`` this sheet and ``other`` write
        otherwise (one of them writing none counts); end-of-game entries are left out."""
        own, theirs = self.totals_by_deal(column), other.totals_by_deal(column)
        return frozenset(deal for deal in own.keys() | theirs.keys()
                         if deal is not None and own.get(deal) != theirs.get(deal))

    @functools.cached_property
    def _by_column(self) -> dict[Column, tuple[SheetEntry, ...]]:
        """Every column's entries, sorted out in one pass (a caller asks for each column)."""
        columns: dict[Column, list[SheetEntry]] = defaultdict(list)
        for entry in self.entries:
            columns[entry.column].append(entry)
        return {column: tuple(entries) for column, entries in columns.items()}


def _plus(a: Fraction, b: Fraction) -> Fraction:
    """``a + b``, two whole numbers added as ints: the same sum, a fraction of the time of
    Fraction's own addition (a sheet's amounts are whole but for half whists)."""
    if a.denominator == 1 and b.denominator == 1:
        return Fraction(a.numerator + b.numerator)
    return a + b


class _Game:
    """Mutable state of a game being written; used only inside :class:`SheetWriter`."""

    def __init__(self, rules: RuleSet, seats: tuple[str, ...]) -> None:
        self.rules = rules
        self.seats = seats
        self.totals: dict[Column, Fraction] = {c: Fraction(0) for c in sheet_columns(self.seats)}
        self.order = {column: index for index, column in enumerate(self.totals)}
        self.pool_columns = {seat: Column(seat, "pool") for seat in seats}
        self.entries: list[SheetEntry] = []

    def copy(self) -> _Game:
        """The same game, to be written on independently."""
        game = copy.copy(self)
        game.totals = dict(self.totals)
        game.entries = list(self.entries)
        return game

    def pool(self, seat: str) -> Fraction:
        return self.totals[self.pool_columns[seat]]

    def finished(self) -> bool:
        size = self.rules.pool
        if size is None:
            return False
        pools = [self.totals[column] for column in self.pool_columns.values()]
        if self.rules.helps_on_close:
            return all(p >= size for p in pools)
        return sum(pools) >= size * len(self.seats)

    def close_pool(self, postings: Iterable[Posting]) -> list[Posting]:
        """Send pool postings through help or the own mountain (4.2.3, 4.1.1, §9a)."""
        size = self.rules.pool
        if size is None or not self.rules.helps_on_close:
            return list(postings)  # nothing is helped: every posting stands
        result: list[Posting] = []
        pending = {column: self.totals[column]  # during this deal
                   for column in self.pool_columns.values()}
        for posting in postings:
            column = posting.column
            if column.kind != "pool":
                result.append(posting)
                continue
            helper = column.seat
            rest = posting.amount
            own = min(rest, max(Fraction(0), size - pending[column]))
            if own:
                result.append(Posting(column, own, posting.reason))
                pending[column] += own
                rest -= own
            while rest > 0:
                helped = self._most_helped(helper, pending, size)
                if helped is None:
                    result.append(Posting(Column(helper, "mountain"), -rest,
                                          said("surplus", reason=posting.reason)))
                    break
                points = min(rest, size - pending[Column(helped, "pool")])
                pending[Column(helped, "pool")] += points
                result.append(Posting(Column(helped, "pool"), points,
                                      said("help_from", helper=helper, reason=posting.reason)))
                result.append(Posting(Column(helper, "whists", helped),
                                      points * HELP_WHISTS_PER_POINT,
                                      said("help", points=str(points), n=HELP_WHISTS_PER_POINT)))
                rest -= points
        return result

    def _most_helped(self, helper: str, pools: dict[Column, Fraction], size: int) -> str | None:
        """The open pool to help: the largest; ties go to the next seat clockwise (4.2.3)."""
        start = self.seats.index(helper)
        order = [self.seats[(start + i) % len(self.seats)] for i in range(1, len(self.seats))]
        open_seats = [s for s in order if pools[Column(s, "pool")] < size]
        if not open_seats:
            return None
        return max(open_seats, key=lambda s: (pools[Column(s, "pool")], -order.index(s)))

    def write(self, postings: Iterable[Posting], deal: int | None) -> None:
        """Add one deal's postings: one entry per column, in sheet column order."""
        amounts: dict[Column, Fraction] = {}
        reasons: dict[Column, list[str]] = {}
        for posting in postings:
            column = posting.column
            if column in amounts:
                amounts[column] = _plus(amounts[column], posting.amount)
                reasons[column].append(posting.reason)
            else:  # a column's first posting (most often its only one) is its amount
                amounts[column] = posting.amount
                reasons[column] = [posting.reason]
        for column in sorted(amounts, key=self.order.__getitem__):
            amount = amounts[column]
            if amount.numerator:  # not 0
                total = self.totals[column] = _plus(self.totals[column], amount)
                self.entries.append(SheetEntry(column, deal, amount, total,
                                               tuple(reasons[column])))

    def closing_correction(self) -> list[Posting]:
        """Pools brought to the size through the mountain at the end (4.2.3.3, 4.2.3)."""
        size = self.rules.pool
        assert size is not None
        factor = Fraction(self.rules.pool_point_whists, 10)
        postings = []
        for seat in self.seats:
            off = self.pool(seat) - size
            if off:
                postings.append(Posting(Column(seat, "mountain"), -off * factor, said(
                    "over_pool" if off > 0 else "short_pool", points=str(abs(off)),
                    factor=str(factor))))
        return postings


class SheetWriter:
    """Writes a game deal by deal, as :func:`expected_sheet` does (RULES.md §§3-6, 9a).

    The state after a deal is everything the later deals are written from (the totals, and
    so the pools being closed, the all-pass run, the deal that closed the pool), so
    :meth:`copy` lets deal logs that share their first deals write those once: the scanner
    weighs many readings of one row against the same rows before it. A writer and its copies
    score each deal once at each all-pass price (:func:`~scoring.deal_scoring.score_deal`
    depends on nothing else): the rows after the one weighed are written again for each
    of its readings.

    >>> from scoring.record import parse_record
    >>> doc = {"format": "pulka-record/1", "seats": ["A", "B", "C"],
    ...        "rules": {"variant": "sochi", "players": 3, "pool": 10},
    ...        "deals": [{"type": "contract", "declarer": "A", "contract": "6S",
    ...                   "defence": {"B": "pass", "C": "pass"}}]}
    >>> record = parse_record(doc)
    >>> writer = SheetWriter(record.rules, record.seats)
    >>> later = writer.copy()
    >>> [str(entry) for entry in writer.add(record.deals[0])]
    ['A pool +2 = 2 (deal 1)']
    >>> writer.sheet() == expected_sheet(record), later.sheet().entries
    (True, ())
    """

    def __init__(self, rules: RuleSet, seats: tuple[str, ...]) -> None:
        self._game = _Game(rules, seats)
        self._allpass_run = 0
        self._ended_at: int | None = None
        self._warnings: list[str] = []
        self._scored: dict[tuple[Deal, int], list[Posting]] = {}

    def copy(self) -> SheetWriter:
        """A writer in the same state, to go on independently."""
        writer = SheetWriter.__new__(SheetWriter)
        writer._game = self._game.copy()
        writer._allpass_run = self._allpass_run
        writer._ended_at = self._ended_at
        writer._warnings = list(self._warnings)
        writer._scored = self._scored
        return writer

    @property
    def entries(self) -> tuple[SheetEntry, ...]:
        """The entries written so far, without the end-of-game correction."""
        return tuple(self._game.entries)

    @property
    def totals(self) -> dict[Column, Fraction]:
        """Every column's running total so far."""
        return dict(self._game.totals)

    def course(self) -> tuple[tuple[Fraction, ...], int, bool]:
        """What the amounts the deals still to come write depend on: the pools (their
        closing, 4.2.3), the all-pass run (its price, §5) and whether the game has ended
        (the end-of-game correction). Two writers on the same course write the same amounts
        in the same columns for the same next deals; their totals differ only by what each
        holds already (the scanner writes the rows after a weighed reading once for all its
        readings on one course).

        Sochi, A plays 6 and takes 6, B and C whist and take 4 and 0, or 3 and 1: the
        whists differ, the course does not, and A's next 6 writes the same on both sheets.

        >>> from scoring.record import parse_record
        >>> def played(b_tricks):
        ...     first = {"type": "contract", "declarer": "A", "contract": "6S",
        ...              "defence": {"B": "whist", "C": "whist"},
        ...              "tricks": {"A": 6, "B": b_tricks, "C": 4 - b_tricks}}
        ...     second = {"type": "contract", "declarer": "A", "contract": "6S",
        ...               "defence": {"B": "pass", "C": "pass"}}
        ...     record = parse_record({"format": "pulka-record/1", "seats": ["A", "B", "C"],
        ...                            "rules": {"variant": "sochi", "players": 3, "pool": 10},
        ...                            "deals": [first, second]})
        ...     writer = SheetWriter(record.rules, record.seats)
        ...     writer.add(record.deals[0])
        ...     course, before = writer.course(), len(writer.entries)
        ...     writer.add(record.deals[1])
        ...     later = [f"{e.column} {e.amount}" for e in writer.entries[before:]]
        ...     return course, later, [str(e) for e in writer.entries[:before]]
        >>> four, three = played(4), played(3)
        >>> four[:2] == three[:2], four[1]
        (True, ['A pool 2'])
        >>> four[2]
        ['A pool +2 = 2 (deal 1)', 'B whists on A +8 = 8 (deal 1)']
        >>> print(*three[2], sep="; ")
        A pool +2 = 2 (deal 1); B whists on A +6 = 6 (deal 1); C whists on A +2 = 2 (deal 1)
        """
        game = self._game
        pools = tuple(game.totals[column] for column in game.pool_columns.values())
        return pools, self._allpass_run, self._ended_at is not None

    def add(self, deal: Deal) -> tuple[SheetEntry, ...]:
        """Write the next deal of the log: its postings through the closing of the pool;
        return the entries it wrote (the last of :attr:`entries`)."""
        game, rules = self._game, self._game.rules
        before = len(game.entries)
        if self._ended_at is not None:
            self._warnings.append(said("after_end", deal=deal.number, end=self._ended_at))
        price = rules.allpass_progression.price(self._allpass_run)
        self._allpass_run = self._allpass_run + 1 if deal.kind == "allpass" else 0
        postings = self._scored.get((deal, price))
        if postings is None:
            postings = self._scored[(deal, price)] = score_deal(deal, rules, price)
        game.write(game.close_pool(postings), deal.number)
        if self._ended_at is None and game.finished():
            self._ended_at = deal.number
        return tuple(game.entries[before:])

    def sheet(self, ended_by_consent: bool = False) -> ExpectedSheet:
        """The expected sheet of the deals written so far (the writer is left as it is);
        ``ended_by_consent``: the players stopped early by common consent (4.2.3)."""
        game, rules = self._game.copy(), self._game.rules
        totals = dict(game.totals)
        finished = self._ended_at is not None or (ended_by_consent and rules.pool is not None)
        if finished and (not rules.helps_on_close or ended_by_consent):
            game.write(game.closing_correction(), None)
        return ExpectedSheet(game.seats, tuple(game.entries), totals, finished,
                             self._ended_at, tuple(self._warnings))


def expected_sheet(record: GameRecord) -> ExpectedSheet:
    """Write the whole game as the rules would (RULES.md §§3-6, 9a)."""
    writer = SheetWriter(record.rules, record.seats)
    for deal in record.deals:
        writer.add(deal)
    return writer.sheet(record.ended_by_consent)


def _signed(value: Fraction) -> str:
    return ("+" if value >= 0 else "") + str(value)
