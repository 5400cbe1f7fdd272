"""Decode the running totals of one column with the rules as evidence, not as a mould.

For each written entry the rules expect a value: the writer's own previous total plus the
amount of the deal that comes next in this column (or, after a slip, the right running total;
:mod:`scanner.decode.column_paths` has the writer's model). The reading chosen maximises
P(ink | value) x P(value | rules), weighed over the whole column: the prior gives the expected
values most of the weight (players mostly write right) and every other value a little. So an
ambiguous 16-or-18 becomes the 18 the rules expect, while a clear 16 stays 16: a recording
error, kept for the audit. A value that disagrees with the rules is *read* only when the ink
alone is clearly sure of it; otherwise it is *doubtful*, with its candidates.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scanner.decode.column_paths import (
    OTHER_VALUE_PRIOR,
    PRIOR_RIGHT_STEP,
    Edge,
    EntryStep,
    entry_posteriors,
)
from scanner.decode.confirmed import (
    digit_may_be_lost,
    lost_digit_confirmed,
    overruling_confirmed,
    short_of,
    sign_turned,
    slip_carried_on,
    slip_written_clearly,
    unspelled,
)
from scanner.decode.corrections import corrected_after, corrected_next
from scanner.decode.falling_slips import falling_slips_asked
from scanner.decode.numbers import (
    EMPTY,
    PROBABILITY_FLOOR,
    CellSpelling,
    cell_spelling,
    likeliest_values,
    strip_values,
)
from scanner.decode.repeats import written_twice
from scanner.decode.slips_not_carried import slips_not_carried
from scanner.decode.unseen_slips import carried_on_unseen
from scanner.words import comma_list, said, value_said
from scoring.columns import Column
from scoring.notation import PRICES
from scoring.rules import RuleSet
from scoring.sheet import SheetEntry

READ_POSTERIOR = 0.995
"""A reading at or above this posterior is *read*; below it, *doubtful*."""
INK_OUTWEIGHED = 300.0
"""A value the ink finds this many times less likely than its own reading is *read* only at
:data:`~scanner.decode.confirmed.OVERRULED_READ` (where the ink reads it with one digit
left out, :data:`~scanner.decode.confirmed.LOST_DIGIT_READ`), the entries after it
confirming it (they are written from it, so the ink's value was neither a slip carried on
nor one corrected next), and both values numbers (ink read blank, or a value where the
rules end the column, stays *doubtful*); else a person looks (the ink wins when clear). A
digit the reader missed altogether makes a value only 1 / :data:`~scanner.decode.numbers.
MISSED_DIGIT` (100) times less likely by its ink: the rules' value over ink that lost one of
its digits is read on its posterior, as where the ink is unsure, or on the lost digit's
bars (:func:`~scanner.decode.confirmed.lost_digit_confirmed`). Tried at 90 (so that a lost
digit's value is overruled ink): 54 TRAINING sets, doubtful 2,436 -> 2,469, no person
347 -> 342, silent 8 -> 9."""
BLANK_CELL = 0.99
"""A cell this likely empty holds nothing; an entry of such cells after a column's last
written one is its end."""
CANDIDATES_SHOWN = 4
CANDIDATE_MIN = 1e-4
"""A value less likely than this is no candidate: its order among the other unlikely ones
is noise (a stored sheet's rounded ink can swap it)."""
READINGS_WEIGHED = 8
"""An entry's likeliest values by its ink alone, weighed besides those the rules expect."""
EMPTY_PASSES = 3
"""Passes of :func:`decode_column` with the entries decided empty pinned, at most (one
almost always settles it)."""


@dataclass(frozen=True)
class EntryCells:
    """The recognizer's view of one written entry: digit cells left to right, and the
    probability that its sign cell holds a minus (``None`` without a sign cell)."""

    cells: tuple[Sequence[float], ...]
    minus: float | None = None
    strip: tuple[Sequence[float], ...] | None = None
    """The entry's glyphs read as one strip (:mod:`scanner.image.strips`), left to right;
    ``None``: not read so."""
    traced: bool = False
    """Whether the cutting kept any ink in its boxes, however little: a cell with less than
    :data:`~scanner.constants.EMPTY_MAX_INK_FRACTION` reads blank, but its speck may be what
    is left of a light stroke."""

    @functools.cached_property
    def spelling(self) -> CellSpelling:
        """P(ink | value) of this entry's cells (and strip), each value worked out once, and
        once for every entry whose ink reads the same
        (:func:`~scanner.decode.numbers.cell_spelling`)."""
        return cell_spelling(self.cells, self.minus, self.strip)

    @functools.cached_property
    def likeliest(self) -> list[int | None]:
        """The values the ink itself reads likeliest (:func:`likeliest_values`, the strip's
        readings added), worked out once: each pass of :func:`decode_column` weighs them
        again."""
        values = likeliest_values(self.cells, READINGS_WEIGHED, self.minus)
        return values + [v for v in strip_values(self.strip, self.minus) if v not in values]


@dataclass(frozen=True)
class EntryInk:
    """An entry's ink as a scan kept it, without its cells: P(ink | value) for the values
    :func:`decode_column` weighed (``EntryDecision.ink``). A value not kept gets
    :meth:`probability`'s bound: no more than the least likely value kept (nor than
    :data:`~scanner.decode.numbers.PROBABILITY_FLOOR`)."""

    likelihood: Mapping[int | None, float]

    def probability(self, value: int | None) -> float:
        """P(ink | value), from what was kept."""
        if value in self.likelihood:
            return self.likelihood[value]
        return min([PROBABILITY_FLOOR, *self.likelihood.values()])


@dataclass(frozen=True)
class EntryPinned:
    """An entry whose value is known (a person verified it): decoded as that value, read
    with confidence 1, and the writer's previous total for the entries after it."""

    value: int | None


ColumnEntry = EntryCells | EntryInk | EntryPinned
"""What :func:`decode_column` takes for one entry."""


@dataclass(frozen=True)
class EntryDecision:
    """The decoded value of one entry and how sure it is."""

    status: str
    """``read``, ``doubtful`` or ``empty``."""
    value: int | None
    confidence: float
    candidates: tuple[tuple[int | None, float], ...]
    expected: int | None = None
    """The value the rules expected here, if any."""
    deal: int | None = None
    """The deal the rules tie this entry to."""
    note: str = ""
    ink: tuple[tuple[int | None, float], ...] = ()
    """P(ink | value) for the values weighed, most likely first: the ink's own say, before
    the rules' prior (what :class:`EntryInk` takes back to decode the entry again)."""

    @property
    def ink_total(self) -> float:
        """The ink's likelihood summed over the values weighed."""
        return sum(p for _, p in self.ink)

    @property
    def ink_share(self) -> float:
        """The share of the ink's likelihood that the decided value holds (0 where the ink
        weighs nothing)."""
        return self.share_of(self.value)

    def share_of(self, value: int | None) -> float:
        """The share of the ink's likelihood that ``value`` holds (0 where the ink weighs
        nothing)."""
        total = self.ink_total
        return dict(self.ink).get(value, 0.0) / total if total else 0.0

    @property
    def read_as_slip(self) -> bool:
        """Whether the entry is read as the writer's slip on its ink (note ``ink_clearly``):
        a value the rules did not expect, kept for the audit."""
        return self.status == "read" and getattr(self.note, "code", None) == "ink_clearly"

    def confirmed_at(self, share: float) -> bool:
        """Whether the entry is read as the rules' value and its ink alone reads that value
        likeliest, at ``share`` of its likelihood or more: two readings that agree."""
        return (self.status == "read" and self.value is not None
                and self.value == self.expected
                and bool(self.ink) and self.ink[0][0] == self.value
                and self.ink[0][1] >= share * self.ink_total)


def column_ceiling(column: Column, rules: RuleSet) -> int | None:
    """The largest running total ``column`` can hold (``None``: no bound): a pool never
    exceeds the agreed pool where the points past it help the other pools or come off the
    player's own mountain (Sochi and Rostov, RULES.md §6); in Leningrad a pool may pass it.

    >>> column_ceiling(Column("A", "pool"), RuleSet.preset("sochi", 3, 50))
    50
    >>> column_ceiling(Column("A", "pool"), RuleSet.preset("leningrad", 3, 50)) is None
    True
    """
    if column.kind != "pool" or rules.pool is None or not rules.helps_on_close:
        return None
    return rules.pool


def only_rises(column: Column) -> bool:
    """Whether ``column``'s running totals only rise: every deal adds to a pool or a whists
    column (a pool's points past the pool go to the others or come off the mountain, RULES.md
    §6); a mountain's may fall.

    >>> only_rises(Column("A", "pool")), only_rises(Column("A", "mountain"))
    (True, False)
    """
    return column.kind != "mountain"


def value_probability(entry: EntryCells, value: int | None) -> float:
    """P(ink | value) for one entry (:func:`scanner.decode.numbers.spelled_probability`); each
    entry remembers its answers (a sheet's decoding asks about the same values again for
    every deal reading it weighs)."""
    return entry.spelling.probability(value)


def decode_column(entries: Sequence[ColumnEntry], expected: Sequence[SheetEntry],
                  ceiling: int | None = None, rising: bool = False,
                  witnessed: frozenset[str] = frozenset()) -> list[EntryDecision]:
    """Decode a column's written entries together, against its expected entries.

    An entry is its cells (a scan), the ink kept from them (:class:`EntryInk`, decoding a
    stored sheet again) or a value a person verified (:class:`EntryPinned`). Each entry's
    value is weighed over every way the writer may have got there
    (:func:`scanner.decode.column_paths.entry_posteriors`): a later entry that fits only if an
    earlier one was a slip, or a correction, has its say on the earlier one.

    An entry decided empty counts as empty for the others (decided again with it pinned): a
    stored sheet keeps no ink of its empty entries, and decoding it again must agree. An
    empty entry before a written one, or where the deal log writes a total, is *doubtful*.

    Values above ``ceiling`` (:func:`column_ceiling`) get no weight; an entry whose ink
    insists on one is *doubtful* (:func:`_above_ceiling`), and so is a slip read on its ink
    whose next entry goes on from the rules' total
    (:func:`~scanner.decode.slips_not_carried.slips_not_carried`). In a ``rising`` column
    (:func:`only_rises`) a slip that drops the column as no writer's slip does is *doubtful*
    (:func:`~scanner.decode.falling_slips.falling_slips_asked`). Entries that differ from
    their right totals alike are asked as one misread repeated unless the writer's entries
    elsewhere read the digits it would have misread (``witnessed``: :func:`_slips_followed`).
    """
    written = max((i for i, e in enumerate(entries) if not is_blank(e)), default=-1) + 1
    column = list(entries[:written])
    decisions = _decisions(column, expected, ceiling, witnessed)
    for _ in range(EMPTY_PASSES):
        pinned: list[ColumnEntry] = [
            EntryPinned(None) if d.status == "empty" and not isinstance(e, EntryPinned) else e
            for e, d in zip(column, decisions, strict=True)]
        if all(p is e for p, e in zip(pinned, column, strict=True)):
            break
        again = _decisions(pinned, expected, ceiling, witnessed)
        decisions = [was if was.status == "empty" else now
                     for was, now in zip(decisions, again, strict=True)]
        column = pinned
    decisions = slips_not_carried(decisions, expected)
    if rising:
        decisions = falling_slips_asked(decisions)
    if ceiling is not None:
        decisions = _slips_before_above_pool(decisions, ceiling)
    return _between_entries(decisions) + _column_end(entries[written:], expected, written)


def _slips_before_above_pool(decisions: list[EntryDecision], ceiling: int
                             ) -> list[EntryDecision]:
    """``decisions`` with each writer's slip read as its ink says (a value up to
    ``ceiling`` the rules do not expect there) *doubtful* where a later entry is doubtful
    for ink above the pool (:func:`_above_ceiling`): the column was weighed without the
    values above the pool, so the totals the slip was carried on to had no say on it, and
    a digit the reader lost reads as another slip (TRAINING part, seed 483 sheet 017: a
    pool of 20 written 6, 15, 23, a slip of 7 carried on; the 1 of 15 lost, the 5 read as
    the slip at 0.9997, silently; the 23 asked). Where no later entry is asked so, the
    slip stands as read."""
    last_asked = max((i for i, d in enumerate(decisions) if d.status == "doubtful"
                      and getattr(d.note, "code", None) == "above_pool"), default=-1)
    if last_asked < 0:
        return decisions
    return [replace(d, status="doubtful", note=said(
                "slip_before_above_pool", value=value_said(d.value),
                expected=value_said(d.expected)))
            if i < last_asked and d.status == "read" and d.value is not None
            and d.value <= ceiling and d.expected is not None and d.value != d.expected
            and d.ink and d.ink[0][0] == d.value else d
            for i, d in enumerate(decisions)]


def _between_entries(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with each empty entry before one that holds a value *doubtful*: a column
    is written box after box, so it is ink the reader lost, or a box skipped."""
    last = max((i for i, d in enumerate(decisions) if d.value is not None), default=-1)
    return [replace(d, status="doubtful", note=said("later_entry"))
            if i < last and d.status == "empty" else d
            for i, d in enumerate(decisions)]


def _column_end(blank: Sequence[ColumnEntry], expected: Sequence[SheetEntry], at: int
                ) -> list[EntryDecision]:
    """The blank entries after the last written one (the ``at``-th on): *empty*, but
    *doubtful* where the deal log writes a whole running total (ink lost, or skipped)."""
    totals = [e for e in expected if e.deal is not None]
    return [_missing(totals[i]) if i < len(totals) and totals[i].total.denominator == 1
            and not isinstance(entry, EntryPinned)
            else EntryDecision("empty", None, 1.0, ((None, 1.0),))
            for i, entry in enumerate(blank, start=at)]


def _missing(want: SheetEntry) -> EntryDecision:
    """A blank entry where the deal log writes ``want``: *doubtful*; its ink kept as "nothing"
    alone, so that a store decodes it again, as blank, when the deal log is corrected."""
    value = int(want.total)
    return EntryDecision("doubtful", None, 0.0, ((None, 1.0),), value, want.deal,
                         said("expected_unread", value=value), ((None, 1.0),))


def _decisions(entries: list[ColumnEntry], expected: Sequence[SheetEntry],
               ceiling: int | None, witnessed: frozenset[str]) -> list[EntryDecision]:
    """One pass of :func:`decode_column` over the entries up to the last written one; after
    them the column ends (an empty entry: the writer has stopped)."""
    steps = entry_posteriors([*entries, EntryPinned(None)], expected,
                             functools.partial(_entry_ink, ceiling=ceiling))
    decisions = _slips_followed(entries, steps, expected, corrected_next([
        _decision(entry, step, expected, last=k == len(entries) - 1, ceiling=ceiling)
        for k, (entry, step) in enumerate(zip(entries, steps, strict=False))]), witnessed)
    if ceiling is not None:
        decisions = _below_above_ceiling(_around_above_ceiling([
            _above_ceiling(entry, decision, ceiling)
            for entry, decision in zip(entries, decisions, strict=True)], ceiling), expected)
    return carried_on_unseen(_unsure_after_doubtful(_leaning_on_overruled(_slip_may_start(
        _beside_unexplained(corrected_after(written_twice(decisions)))))), expected)


def _slips_followed(entries: list[ColumnEntry], steps: list[EntryStep[ColumnEntry]],
                    expected: Sequence[SheetEntry], decisions: list[EntryDecision],
                    witnessed: frozenset[str]) -> list[EntryDecision]:
    """``decisions`` with a misread the rules cannot see made *doubtful*: an entry whose
    value is not the right running total (a slip, or a misread), followed by entries that
    differ from their right totals by the same digits read as the same others ("102, 112"
    written, "107, 117" read). As the writer carrying on from a slip they fit the rules;
    as one writer's digit misread again and again they fit the ink: a person looks at all
    of them. An entry that is the right total again, or differs otherwise (the writer
    carried on from a slip), ends the pattern; so does one a person verified. A pattern
    starts only where the column leaves its right totals (the entry before is right, or
    there is none): after a slip the writer carried on, every later total is off by the
    slip's amount, and two of them whose right totals share the digits it changes differ
    alike (TRAINING part, a far photo, seed 224: a mountain's slip of 3 carried on, written
    19, 23, 35, 55 for 16, 20, 32, 52; the 35 and 55, "2 read as 5", asked, alone on their
    sheet). Where the writer's own entries show the digits the pattern would have misread
    (``witnessed``, :func:`~scanner.decode.writer_slips.digits_read_right`) and each of its
    entries' ink reads its value clearly, the pattern is the writer's slip carried on
    (:func:`_carried_clearly`)."""
    followed = list(decisions)
    pattern: list[int] = []
    confusion: frozenset[tuple[str, str]] = frozenset()
    off_before = False
    for k, (entry, step, decision) in enumerate(zip(entries, steps, decisions, strict=False)):
        if isinstance(entry, EntryPinned) or decision.value is None:
            if isinstance(entry, EntryPinned):
                pattern, off_before = [], False
            continue
        right = _right_total(step.best_edge(decision.value), expected)
        misread = digit_confusion(right, decision.value)
        if pattern and misread and misread == confusion:
            pattern.append(k)
            carried = _carried_clearly([decisions[j] for j in pattern], confusion, witnessed)
            for j in pattern:
                followed[j] = decisions[j] if carried else \
                    _repeated(followed[j], right if j == k else None, confusion)
            continue
        pattern, confusion = ([k], misread) if misread and not off_before else ([], misread)
        off_before = bool(misread)
    return followed


REPEAT_INK_CLEAR = 0.99
"""The least share of its likelihood each entry's ink gives its value for a pattern of
entries that differ from their right totals alike to be the writer's slip carried on, where
the writer's other entries show the digits it would misread (:func:`_carried_clearly`)."""


def _carried_clearly(pattern: Sequence[EntryDecision], confusion: frozenset[tuple[str, str]],
                     witnessed: frozenset[str]) -> bool:
    """Whether entries that differ from their right totals by the same digits read as
    others (``confusion``) are the writer's slip carried on, not one misread repeated: every
    digit the misread would have taken for another is one the reader reads right elsewhere in
    this writer's entries (``witnessed``), and each entry's ink reads its value at
    :data:`REPEAT_INK_CLEAR` of its likelihood or more. TRAINING part (seeds 354-473): of
    the 244 entries asked as a misread repeated, every one was read right but 8, each a
    leading 1 the reader lost (13, 15, 17 read 3, 5, 7 at 0.91-0.96) or ink reading another
    value; 35 sheets asked about two such entries and nothing else, each a recording error
    the writer carried on (a whists column written 8, 28, 48 for 6, 26, 46, read at 1.0).
    Read again with this witness: 71 entries of 15 sheets read, each right."""
    return all(written in witnessed for written, _ in confusion) \
        and all(d.ink_share >= REPEAT_INK_CLEAR for d in pattern)


def digit_confusion(right: int | None, value: int) -> frozenset[tuple[str, str]]:
    """The digits of ``right`` read as others in ``value`` (right-aligned), as (written,
    read) pairs; empty when they are equal or ``right`` is unknown.

    >>> sorted(digit_confusion(112, 117))
    [('2', '7')]
    """
    if right is None or right == value:
        return frozenset()
    width = max(len(str(right)), len(str(value)))
    return frozenset((a, b) for a, b in zip(str(right).rjust(width), str(value).rjust(width),
                                             strict=True) if a != b)


def _repeated(decision: EntryDecision, right: int | None,
              confusion: frozenset[tuple[str, str]]) -> EntryDecision:
    """``decision`` made *doubtful* as one of a repeated misread's entries."""
    if decision.status == "doubtful" and right is None:
        return decision
    pairs = [said("read_as", ink=a, value=b) for a, b in sorted(confusion)]
    return replace(decision, status="doubtful",
                   note=said("misread_repeated", confusion=comma_list(pairs)))


def _entry_index(edge: Edge) -> int:
    """The index, among the column's expected entries, of the one ``edge`` writes."""
    return edge.option.index if edge.option is not None else edge.source.next


def _deal_of(edge: Edge, expected: Sequence[SheetEntry]) -> int | None:
    """The deal the entry ``edge`` writes is tied to (``None``: none)."""
    index = _entry_index(edge)
    return expected[index].deal if index < len(expected) else None


def _right_total(edge: Edge, expected: Sequence[SheetEntry]) -> int | None:
    """The right running total for the entry ``edge`` writes: the expected total of the
    deal it is tied to (``None``: none, or not whole)."""
    index = _entry_index(edge)
    if index >= len(expected) or expected[index].total.denominator != 1:
        return None
    return int(expected[index].total)


PAST_POOL_MOST = max(PRICES.values())
"""The most a written pool total passes the pool by as a writer's own slip (one who forgot
the pool was closed adds one deal's price, at most a ten's); ink reading further past it is
a misread digit (issue 13, class 5: written 24, 23 and 26 read 74, 73 and 76)."""

SHOWN_PAST_POOL = 0.95
"""The least share of its likelihood the ink gives a value past the pool by at most
:data:`PAST_POOL_MOST` for an entry left doubtful above the pool to show that value, not the
rules' value under the pool that the ink hardly gives: what a person is shown to check is
what the writer wrote. The entry stays doubtful below :data:`PAST_POOL_SLIP_CLEAR`
(:func:`_above_ceiling`). Chosen on the
TRAINING part (29 sets, 464 sheets): a writer's slip past the pool carried on (a pool of
10 written 11, 12, 14, 16, 17 where the rules make 1, 2, 4, 6, 7) reads 0.95-0.997, and
was shown as the rules' values below :data:`~scanner.decode.confirmed.INK_SLIP_CLEAR` (22
entries, now shown as written);
every entry whose ink gave its likeliest share to another value within a deal's price past
the pool held it at 0.90 or less."""
PAST_POOL_SLIP_CLEAR = 0.99
"""The least share of its likelihood the ink gives a value past the pool by at most
:data:`PAST_POOL_MOST` for the value to be *read* as written, where the rules expect an
entry there: the writer's slip of one who forgot the pool was closed, for the audit
(:func:`_above_ceiling`). Lower than :data:`~scanner.decode.confirmed.INK_SLIP_CLEAR`, the
bar of a slip no later entry confirms: the rules' value there is the pool itself, and no
misread of it reaches this share. Chosen on the TRAINING part (54 sets of seeds 271-347,
seeds 348-351, legacy sets L310-L311): the 51 entries doubtful above the pool showing a
value within a deal's price past it were each the writer's; every pool total written as
the pool whose ink gave a value past it a share (2,179) held it at 0.93 or less. Read
again: 23 entries read so, each right; on the 54 sets doubtful fields 2,418 -> 2,398,
sheets needing no person 354 -> 358."""


def _above_ceiling(entry: ColumnEntry, decision: EntryDecision, ceiling: int) -> EntryDecision:
    """``decision`` with the ink's values above ``ceiling`` kept in its :attr:`~EntryDecision.ink`
    (a stored sheet decodes again from them), and *doubtful* where they would take the
    decided value under :data:`READ_POSTERIOR` weighed as a player's slip
    (:func:`_share_under_ceiling`): the ceiling bounds what the rules expect, not what a
    writer may write (the old generator's sample, `bench.scan_bench`: a written 22 whose
    units digit reads 9, 2, 8 or 4, the 0 at 0.01, was read 20 sure). Only values a slip
    writes are so weighed: past the pool by :data:`PAST_POOL_MOST` at most, or the total
    the rules expect; ink further past it reads a digit wrong, and makes the entry doubtful
    only where it outweighs the decided value's as ink the rules overrule does
    (:data:`INK_OUTWEIGHED`; TRAINING part, 29 sets: 21 entries read right whose ink gave
    its likeliest share to such as 38, 60 or 88 in a pool of 20 were doubtful, alone on
    six sheets, four of them without a recording error). Also
    *doubtful* where the rules expect a total above the pool (the writer's earlier totals,
    a slip carried on, passed it): no value the ceiling allows is then the one written
    (TRAINING part, phone-distant: a written 21 in a pool of 20 read 20 at 0.99997). Where
    the ink reads that very total likeliest of the values above the pool, the entry shows it,
    still doubtful (TRAINING part, 18 sets: the written value 9 times of 9; before, the
    ceiling's value was shown, such as 4 for a written 24 the rules expected); so it does
    where the ink gives a value past the pool by no more than :data:`PAST_POOL_MOST`
    :data:`SHOWN_PAST_POOL` of its likelihood, a slip written clearly (TRAINING part, the 28
    of 73 sets where it applies, read again: 39 entries doubtful above the pool that showed
    another value than the one written, such as a written 12 in a pool of 10 whose ink reads
    12 at 0.998 shown 10, show the written one; no other field of the 31,676 changed). Such
    a value is *read* as written (the writer's slip, for the audit) where the ink gives it
    :data:`PAST_POOL_SLIP_CLEAR` of its likelihood and the rules expect an entry there, its
    confidence that share, as any slip read so (TRAINING part, 35 sets: 26 entries read so
    at 0.997, every one right, four sheets more with no person; they were doubtful however
    clear their ink). Those shares are taken over the values a writer may have written:
    ink further past the pool is a digit misread, not a value the writer might have meant
    (TRAINING part, seed 366 sheet 014: a 22 in a pool of 20, its ink 22 at 0.997 and 72 at
    0.012, asked alone on its sheet)."""
    if isinstance(entry, EntryPinned):
        return decision
    if decision.expected is not None and decision.expected > ceiling and \
            decision.value != decision.expected:
        decision = replace(decision, status="doubtful", note=said(
            "expected_above_pool", expected=decision.expected, pool=ceiling,
            value=value_said(decision.value)))
    above = {v: p for v, p in _likelihoods(entry, []).items() if v is not None and v > ceiling}
    if not above:
        return decision
    ink = dict(decision.ink) | above
    changes: dict[str, Any] = {"ink": tuple(sorted(ink.items(), key=lambda item: -item[1]))}
    ink_value = max(above, key=above.__getitem__)
    reach = ceiling + PAST_POOL_MOST  # the furthest past the pool a writer's slip goes
    slips = {v: p for v, p in above.items() if v <= reach or v == decision.expected}
    under = _share_under_ceiling(decision, ink.get(decision.value, 0.0), sum(slips.values()))
    misread = max((p for v, p in above.items() if v not in slips), default=0.0)
    if _taken_under(decision, under) or misread >= INK_OUTWEIGHED * ink.get(decision.value, 0.0) \
            or slips and _ink_past_ceiling(ink, decision.value,
                                           max(slips, key=slips.__getitem__), ceiling):
        changes |= {"status": "doubtful",
                    "note": said("above_pool", ink=ink_value, pool=ceiling,
                                 value=value_said(decision.value))}
    share = ink[ink_value] / sum(p for v, p in ink.items()
                                 if v is None or v <= reach or v == ink_value)
    slip_sized = ink_value <= reach
    clear = share >= SHOWN_PAST_POOL and slip_sized and \
        changes.get("status", decision.status) == "doubtful"
    if ink_value == decision.expected or clear:  # doubtful: the ceiling's value is not it
        changes |= {"value": ink_value, "confidence": 1.0 - under,
                    "candidates": ((ink_value, 1.0 - under), *decision.candidates)}
        if share >= PAST_POOL_SLIP_CLEAR and slip_sized \
                and decision.expected is not None:  # the writer's slip, for the audit
            changes |= {"status": "read", "confidence": share, "note": said(
                "ink_clearly", ink=value_said(ink_value),
                expected=value_said(decision.expected))}
    return replace(decision, **changes)


def _taken_under(decision: EntryDecision, under: float) -> bool:
    """Whether the values past the pool, weighed too, leave the decided value (``under``:
    its posterior then, :func:`_share_under_ceiling`) short of what it was decided at:
    :data:`READ_POSTERIOR`, or, for a value decided below it, that share of its own
    confidence. A value read below the bar (a slip read on its ink, carried on by the entries
    after it) was asked for the faintest ink past the pool (TRAINING part, a grey scan, seed
    397 sheet 014: a pool of 20 whose 17, a slip carried on, was read at 0.986 of its ink;
    the 77 and 27 its ink gave 0.0008 and 0.0003 left it at 0.98618, and it was asked,
    alone on its sheet); a value doubtful for its own reason was said to be doubtful for
    ink past the pool, and the entries beside it asked for it (seed 474 sheet 005: a 19 at
    0.9949, its ink 79 at 0.0003)."""
    if decision.confidence < READ_POSTERIOR:
        return under < READ_POSTERIOR * decision.confidence
    return under < READ_POSTERIOR


def _ink_past_ceiling(ink: Mapping[int | None, float], value: int | None, above: int,
                      ceiling: int) -> bool:
    """Whether the decided ``value`` is the ``ceiling`` itself and the ink reads ``above`` (a
    value past it) likelier and gives the ceiling under half its likelihood: the rules'
    value then stands on the ceiling alone, and a writer who forgot it writes past it
    (TRAINING part, legacy profile, seed 192: a pool of 20 whose last entry, a slip, was
    written 27; its ink 29 at 0.44, 20 at 0.26, 27 at 0.17; the rules' 20 read at 0.99999,
    silently). Below the ceiling the rules' value does not stand on it, and ink past the
    pool is a misread digit the column's paths weigh as any other (TRAINING part, five
    sets: 7 right entries, such as a 12 whose 1 reads 7, made doubtful by this check when
    it asked for no value at the ceiling, and none wrong)."""
    return value == ceiling and ink[above] > ink.get(value, 0.0) and _under_half(ink, value)


def _around_above_ceiling(decisions: list[EntryDecision], ceiling: int) -> list[EntryDecision]:
    """``decisions`` with each entry read against its own ink (the rules and the entries
    around it make it a value its ink does not read likeliest) *doubtful* where another
    entry of the column is doubtful for ink above the pool, or read above ``ceiling``
    (:func:`_above_ceiling`): the column was weighed without the values above the pool, so
    a writer's slip carried on past it had no say, before that entry (TRAINING part, a
    fresh far photo set, seed 43:
    a written 8, then 12 in a pool of 10, a slip of 2 carried on; the 8 read 6, the rules'
    value, at 0.9995 against ink reading 8 at 0.94, the 12 doubtful) or after it (seed 64,
    a grey scan: a pool of 10 written 10, 12, 13 by a writer's slip carried on; the 13,
    its ink 13 at 0.91, read 3 at 0.9999)."""
    above = [i for i, d in enumerate(decisions) if getattr(d.note, "code", None) == "above_pool"
             or d.value is not None and d.value > ceiling]
    if not above:
        return decisions
    return [replace(d, status="doubtful", note=said(
                "before_above_pool" if i < above[-1] else "after_above_pool",
                ink=value_said(d.ink[0][0]), value=value_said(d.value)))
            if d.status == "read" and d.ink and d.ink[0][0] != d.value else d
            for i, d in enumerate(decisions)]


def _below_above_ceiling(decisions: list[EntryDecision], expected: Sequence[SheetEntry]
                         ) -> list[EntryDecision]:
    """``decisions`` with each entry read after one doubtful for ink above the pool
    (:func:`_above_ceiling`), below that entry's value and not the rules' total at its deal,
    *doubtful*: the column was weighed without the values above the pool, so a slip the
    writer carried on past it reads as the lower value its ink keeps where a digit is lost
    (TRAINING part, a distant pencil photo, seed 427 sheet 011: a pool of 10 written 4, 8,
    10, 11, 12 by a slip of 2 carried on; the 11 doubtful, the 12, its 1 lost, read 2 at
    0.9999 as the step after a reading of the 11 as 1). The rules' total after it is the
    writer's correction (4.2.7), read as before."""
    above = [(i, d.value) for i, d in enumerate(decisions)
             if getattr(d.note, "code", None) == "above_pool" and d.value is not None]
    if not above:
        return decisions
    totals = {e.deal: e.total for e in expected if e.deal is not None}
    out = list(decisions)
    for i, d in enumerate(decisions):
        passed = max((value for j, value in above if j < i), default=None)
        if d.status == "read" and d.value is not None and passed is not None and \
                d.value < passed and (d.deal is None or totals.get(d.deal) != d.value):
            out[i] = replace(d, status="doubtful", note=said(
                "below_above_pool", value=value_said(d.value), before=value_said(passed)))
    return out


UNEXPLAINED_INK_SURE = 0.6
"""Beside ink no deal explains, an entry stays read only where its own ink reads its value
likeliest and at least this likely (:func:`_beside_unexplained`; 0.9 cost 0.08 pt more
doubtful fields on thirteen fresh TRAINING sets and caught nothing more)."""


def _beside_unexplained(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with each entry read on the rules' word (its ink reads another value
    likeliest, or its value below :data:`UNEXPLAINED_INK_SURE`) *doubtful* where another
    entry of the column holds ink that reads a value and that no deal of the log writes:
    the log is short of a deal there, or misread, and the totals it makes are no check on
    the ink (TRAINING part, pencil far photos, seed 78: a written 12 read 2, the rules'
    value, at 0.9996 against ink reading 12 likeliest, the next entry's 22 unexplained,
    the row that wrote it lost; seed 74: 32 read 38 at 0.998 against ink 32, three boxes
    of ink after it unexplained; a steep photo of pencil, seed 86: 64 read 68 at 0.9998,
    its ink 68 at 0.50 and 69 at 0.29, the next entry's clear 88 unexplained)."""
    unexplained = {i for i, d in enumerate(decisions) if d.expected is None and
                   d.deal is None and d.ink and d.ink[0][0] is not None}
    if not unexplained:
        return decisions
    return [replace(d, status="doubtful", note=said(
                "beside_unexplained", ink=value_said(d.ink[0][0]), value=value_said(d.value)))
            if i not in unexplained and d.status == "read" and d.ink and (
                d.ink[0][0] != d.value or d.ink[0][1] < UNEXPLAINED_INK_SURE)
            else d for i, d in enumerate(decisions)]


SLIP_START_INK = 0.05
"""An entry read as the rules' value whose ink finds the value a slip carried on into the
next entry would make at least this likely is *doubtful* (:func:`_slip_may_start`)."""


def _slip_may_start(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with an entry read *doubtful* where the next entry is doubtful against
    its own ink (the ink reads another value than the one decided) and this entry's ink
    finds its value off by the same amount at least :data:`SLIP_START_INK` likely: a slip
    the writer made here and carried on reads so, and only the later total shows it
    (TRAINING part, a pencil far photo, seed 75: a pool written 9, 13 by a slip of 1
    carried on; the 9 read 8, the rules' value, at 0.998, its ink 8 at 0.68 and 9 at
    0.23, the 13 doubtful)."""
    marked = list(decisions)
    for k, (here, after) in enumerate(itertools.pairwise(decisions)):
        if here.status != "read" or here.value is None or after.status != "doubtful" or \
                after.value is None or not after.ink or after.ink[0][0] is None:
            continue
        slip = here.value + after.ink[0][0] - after.value
        if slip != here.value and dict(here.ink).get(slip, 0.0) >= SLIP_START_INK:
            marked[k] = replace(here, status="doubtful", note=said(
                "slip_may_start", ink=value_said(slip), value=value_said(here.value)))
    return marked


CHAINED_INK = 0.005
"""An entry read on the rules' word whose ink finds the value chained from the previous
entry's ink at least this likely is *doubtful* (:func:`_leaning_on_overruled`)."""


def _leaning_on_overruled(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with an entry read *doubtful* where the entry before it is doubtful
    against its own ink and this entry leans on it: its ink finds, at least
    :data:`CHAINED_INK` likely, the value the rules' step makes from that ink, or gives its
    own value under half its weight (:func:`_unsure_after_doubtful`). The deal log that
    overruled the entry before may be
    misread, and then this entry agrees with it by a misread of its own (TRAINING part, a far
    photo of blue ballpoint, seed 108: a mountain written 2, 6, 10; rows misread, the log
    made it 6, 66, 70, the first two doubtful, and the 10 read 70 at 0.997, its ink 70 at 0.98
    and 10, which 6 and the log's step of 4 make, at 0.007. Seed 171: a pool's first total
    lost with its ink, the next, a writer's wrong 8, read the rules' 6 at 0.998, its ink 8
    at 0.80 and 6 at 0.08; on 18 sets the second kind made 3 right entries doubtful). So
    is an entry read as the rules' value right after one read as a slip against them, where
    its ink finds the slip carried on (:func:`_carried_from_slip`): the same misread log
    makes the slip's value look wrong."""
    marked = list(decisions)
    for k, (before, here) in enumerate(itertools.pairwise(decisions), start=1):
        carried = _carried_from_slip(before, here) if here.status == "read" else None
        if carried is not None:
            marked[k] = replace(here, status="doubtful", note=said(
                "carried_from_slip", ink=value_said(carried), value=value_said(here.value)))
        if here.status != "read" or here.value is None or before.status != "doubtful" or \
                before.value is None or not _against_ink(before):
            continue
        ink = dict(here.ink)
        ink_before = before.ink[0][0]
        chained = None if ink_before is None else here.value - before.value + ink_before
        if chained is not None and ink.get(chained, 0.0) >= CHAINED_INK:
            marked[k] = replace(here, status="doubtful", note=said(
                "chained_from_overruled", ink=value_said(chained), value=value_said(here.value)))
    return marked


def _unsure_after_doubtful(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with an entry read on the rules' word, its ink giving the value under
    half its likelihood, made *doubtful* where the entry before it is doubtful: the rules
    expect this value from that one, so it is no surer than that one (TRAINING part, a far
    photo, seed 203: a pool written 15, 19 by a slip carried on, both 1s lost; the 5
    doubtful, the rules' 9 from it read at 0.9992 over ink at 0.28, silently). On 26 sets
    such entries were 6 right and that one wrong, each on a sheet a person already looks
    at. Where the rules overruled the entry before (its ink reads another value), the note
    says so: the deal log that did may be misread (:func:`_leaning_on_overruled`)."""
    marked = list(decisions)
    for k, (before, here) in enumerate(itertools.pairwise(decisions), start=1):
        if before.status != "doubtful" or here.status != "read" or here.value is None \
                or not here.ink:
            continue
        if _under_half(dict(here.ink), here.value):
            marked[k] = replace(here, status="doubtful", note=said(
                "unsure_after_overruled" if _against_ink(before) else "unsure_after_doubtful",
                value=value_said(here.value)))
    return marked


def _against_ink(decision: EntryDecision) -> bool:
    """Whether ``decision`` holds a value its ink does not read likeliest (the rules made it
    so against the ink)."""
    return decision.value is not None and bool(decision.ink) and \
        decision.ink[0][0] != decision.value


def _carried_from_slip(before: EntryDecision, here: EntryDecision) -> int | None:
    """The value the writer makes by carrying on the slip read in ``before`` (a value the
    rules do not expect, its ink clear) to the next deal, where ``here`` holds the rules'
    value instead and its ink finds that carried value at least :data:`CHAINED_INK`
    likely; else None. Which one the writer did, or whether the deal log that made the
    slip's value wrong is itself misread, only the ink tells, and it is not sure. Where
    ``here`` is the same deal's total, the slip corrected (4.2.7), nothing is carried on:
    the slip's own value again is no running total (TRAINING part, 434 sheets of seeds
    440-449 and 474-482: every such entry, such as an 8 written after a slip of 18, read
    right, its ink finding the 18 as a lost leading 1 and doubtful for it; five sheets were
    asked about nothing else)."""
    if here.value is None or here.value != here.expected or before.value is None \
            or before.expected is None or before.status != "read" \
            or before.value == before.expected \
            or (here.deal is not None and here.deal == before.deal):
        return None
    carried = here.value - before.expected + before.value
    return carried if dict(here.ink).get(carried, 0.0) >= CHAINED_INK else None


def _share_under_ceiling(decision: EntryDecision, ink_decided: float, ink_above: float
                         ) -> float:
    """The decided value's posterior once the values above the ceiling, whose ink adds up to
    ``ink_above``, are weighed too, each with the prior of a value the rules do not expect
    (:data:`~scanner.decode.column_paths.OTHER_VALUE_PRIOR`); the decided value has the
    prior of the rules' step where it is the value they expect, else the same as those."""
    prior = PRIOR_RIGHT_STEP if decision.value == decision.expected else OTHER_VALUE_PRIOR
    decided = ink_decided * prior
    return decision.confidence * decided / max(decided + ink_above * OTHER_VALUE_PRIOR,
                                               PROBABILITY_FLOOR)


def _unsure(ranked: list[tuple[int | None, float]]) -> str:
    """The note of an entry read below :data:`READ_POSTERIOR` that no rule explains: how
    sure the reading is, and the next likeliest value a person should weigh."""
    (value, share), *others = ranked
    other = others[0][0] if others else None
    return said("entry_unsure", value=value_said(value), share=f"{share:.4f}",
                other=value_said(other))


def _shown(ranked: list[tuple[int | None, float]]) -> tuple[tuple[int | None, float], ...]:
    """The candidates a person is shown: the likeliest few, none below
    :data:`CANDIDATE_MIN` but the first."""
    return tuple(ranked[:1] + [c for c in ranked[1:CANDIDATES_SHOWN] if c[1] >= CANDIDATE_MIN])


def is_blank(entry: ColumnEntry) -> bool:
    """An entry whose cells hold nothing, beyond doubt (or one a person verified empty)."""
    if isinstance(entry, EntryPinned):
        return entry.value is None
    if isinstance(entry, EntryInk):  # the ink a blank entry keeps (:func:`_missing`)
        return set(entry.likelihood) == {None}
    return all(cell[EMPTY] >= BLANK_CELL for cell in entry.cells) and \
        (entry.minus is None or entry.minus <= 1 - BLANK_CELL)


def _entry_ink(entry: ColumnEntry, values: Iterable[int | None], ceiling: int | None
               ) -> dict[int | None, float]:
    """P(ink | value) for the ink's likeliest values and for ``values`` (a verified entry:
    its value only), none above ``ceiling``."""
    if isinstance(entry, EntryPinned):
        return {entry.value: 1.0}
    ink = _likelihoods(entry, list(values))
    if ceiling is None:
        return ink
    return {v: p for v, p in ink.items() if v is None or v <= ceiling}


def _ink_past(entry: ColumnEntry, ceiling: int | None) -> float:
    """P(ink | value) summed over the ink's likeliest values above ``ceiling``, which the
    column's paths do not weigh (:func:`_entry_ink`)."""
    if ceiling is None or isinstance(entry, EntryPinned):
        return 0.0
    return sum(p for v, p in _likelihoods(entry, []).items() if v is not None and v > ceiling)


def _decision(entry: ColumnEntry, step: EntryStep[ColumnEntry], expected: Sequence[SheetEntry],
              last: bool, ceiling: int | None = None) -> EntryDecision:
    """One entry's decision from its posterior (see the module doc for the statuses);
    ``last``: the column's last written entry; ``ceiling``: the column's, whose values past
    it a slip's share of the ink counts too (:func:`_ink_past`)."""
    ranked = sorted(step.posterior.items(), key=lambda item: -item[1])
    best, confidence = ranked[0]
    edge = step.best_edge(best)
    expected_value = edge.expected_value
    deal = None if best is None else _deal_of(edge, expected)
    ink = _ranked_ink(step.ink)
    if isinstance(entry, EntryPinned):
        return EntryDecision("empty" if entry.value is None else "read", entry.value, 1.0,
                             ((entry.value, 1.0),), expected_value, deal)
    ink_total = sum(step.ink.values())
    if step.ink_clear:  # the ink clearly says what the rules do not expect: kept, for the audit
        shares = _ink_shares(step.ink)
        values = {"ink": value_said(best), "expected": value_said(expected_value)}
        if short_of(best, expected_value):  # the reader's lost digit, not the writer's slip
            status, clearly = "doubtful", said("ink_clearly_short", **values)
        elif sign_turned(best, expected_value):  # the reader's sign, not the writer's slip
            status, clearly = "doubtful", said("ink_expected", **values)
        else:
            status, clearly = "empty" if best is None else "read", said("ink_clearly", **values)
        return EntryDecision(status, best, shares[0][1], _shown(shares), expected_value, deal,
                             clearly, ink)
    read = confidence >= READ_POSTERIOR
    note = ""
    ink_value, ink_p = max(step.ink.items(), key=lambda item: item[1])
    if ink_value != best and ink_p >= INK_OUTWEIGHED * step.ink[best]:
        if ink_value is not None and ink_value in step.posterior \
                and slip_written_clearly(step, ink_value, expected_value,
                                         _ink_past(entry, ceiling)):
            return _slip_read(step, ink_value, expected_value, expected)
        # the rules (through the entries around it) outweigh ink that says otherwise
        note = said("ink_overruled", ink=value_said(ink_value), value=value_said(best))
        confirmed = overruling_confirmed(step, best, ink_value, confidence, last)
        return EntryDecision("read" if confirmed else "doubtful", best, confidence,
                             _shown(ranked), expected_value, deal, note, ink)
    if best is None:
        if step.matched[None] < confidence / 2:
            note = said("empty_expected", expected=value_said(expected_value))
        elif not read:
            note = _unsure(ranked)
        return EntryDecision("empty" if read else "doubtful", None, confidence,
                             _shown(ranked), expected_value, None, note, ink)
    if step.matched[best] < confidence / 2:  # a value the rules do not expect here
        longer = digit_may_be_lost(step, best)
        if slip_carried_on(step, best) and longer is None:
            return EntryDecision("read", best, confidence, _shown(ranked), expected_value, deal,
                                 said("ink_clearly", ink=value_said(best),
                                      expected=value_said(expected_value)), ink)
        if slip_written_clearly(step, best, expected_value, _ink_past(entry, ceiling)):
            return _slip_read(step, best, expected_value, expected)
        read = False  # not clear enough from the ink alone to be kept against the rules
        note = said("ink_expected", ink=best, expected=value_said(expected_value)) \
            if longer is None else said("digit_may_be_lost", ink=best, value=longer,
                                        expected=value_said(expected_value))
    elif unspelled(step, best):
        read = False  # the rules' value, which no digits the ink shows spell
        note = said("ink_unspelled", value=best)
    elif step.ink[best] / ink_total < 0.5:
        note = said("ink_unsure", value=best)
        read = read or lost_digit_confirmed(step, best, ink_value, confidence, last)
    elif not read:
        note = _unsure(ranked)
    return EntryDecision("read" if read else "doubtful", best, confidence, _shown(ranked),
                         expected_value, deal, note, ink)


def _slip_read(step: EntryStep[ColumnEntry], value: int, expected_value: int | None,
               expected: Sequence[SheetEntry]) -> EntryDecision:
    """``value``, which the rules do not expect (``expected_value``) but the ink says clearly
    (:func:`~scanner.decode.confirmed.slip_written_clearly`), *read* as written: a player's
    slip, for the audit, whatever the rules made of it. Its confidence is the ink's share."""
    shares = _ink_shares(step.ink)
    return EntryDecision("read", value, dict(shares)[value], _shown(shares), expected_value,
                         _deal_of(step.best_edge(value), expected),
                         said("ink_clearly", ink=value_said(value),
                              expected=value_said(expected_value)), _ranked_ink(step.ink))


def _ranked_ink(ink: Mapping[int | None, float]) -> tuple[tuple[int | None, float], ...]:
    """P(ink | value) for each value, most likely first."""
    return tuple(sorted(ink.items(), key=lambda item: -item[1]))


def _ink_shares(ink: Mapping[int | None, float]) -> list[tuple[int | None, float]]:
    """Each value's share of the ink's likelihood, most likely first."""
    total = sum(ink.values())
    return [(v, p / total) for v, p in _ranked_ink(ink)]


def _under_half(ink: Mapping[int | None, float], value: int | None) -> bool:
    """Whether the ink gives ``value`` under half its likelihood."""
    return ink.get(value, 0.0) < 0.5 * sum(ink.values())


def _likelihoods(entry: EntryCells | EntryInk, values: list[int | None]
                 ) -> dict[int | None, float]:
    """P(ink | value) for the ink's likeliest values and for ``values``."""
    if isinstance(entry, EntryInk):
        ink = dict(entry.likelihood)
        for value in values:
            ink.setdefault(value, entry.probability(value))
        return ink
    spelling = entry.spelling
    return {value: spelling.probability(value) for value in [*entry.likeliest, *values]}
