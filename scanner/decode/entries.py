"""One entry of a column as the column decoder takes it, and as it decides it.

An entry is its cells (a scan), the ink a stored sheet kept of them (:class:`EntryInk`), or
a value a person verified (:class:`EntryPinned`); its decision (:class:`EntryDecision`) is a
status (*read*, *doubtful*, *empty*), a value, how sure, and the ink's own say. The bars that
tell *read* from *doubtful* stand here with it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scanner.decode.numbers import (
    EMPTY,
    PROBABILITY_FLOOR,
    CellSpelling,
    cell_spelling,
    likeliest_values,
    strip_values,
)

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


READINGS_WEIGHED = 8
"""An entry's likeliest values by its ink alone, weighed besides those the rules expect."""


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
        readings added), worked out once: each pass of :func:`~scanner.decode.columns.decode_column`
        weighs them
        again."""
        values = likeliest_values(self.cells, READINGS_WEIGHED, self.minus)
        return values + [v for v in strip_values(self.strip, self.minus) if v not in values]


@dataclass(frozen=True)
class EntryInk:
    """An entry's ink as a scan kept it, without its cells: P(ink | value) for the values
    :func:`~scanner.decode.columns.decode_column` weighed (``EntryDecision.ink``). A value not kept
    gets :meth:`probability`'s bound: no more than the least likely value kept (nor than
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
"""What :func:`~scanner.decode.columns.decode_column` takes for one entry."""


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


def is_blank(entry: ColumnEntry) -> bool:
    """An entry whose cells hold nothing, beyond doubt (or one a person verified empty)."""
    if isinstance(entry, EntryPinned):
        return entry.value is None
    if isinstance(entry, EntryInk):  # the ink a blank entry keeps (columns._missing)
        return set(entry.likelihood) == {None}
    return all(cell[EMPTY] >= BLANK_CELL for cell in entry.cells) and \
        (entry.minus is None or entry.minus <= 1 - BLANK_CELL)


def under_half(ink: Mapping[int | None, float], value: int | None) -> bool:
    """Whether the ink gives ``value`` under half its likelihood."""
    return ink.get(value, 0.0) < 0.5 * sum(ink.values())


def likelihoods(entry: EntryCells | EntryInk, values: list[int | None]
                 ) -> dict[int | None, float]:
    """P(ink | value) for the ink's likeliest values and for ``values``."""
    if isinstance(entry, EntryInk):
        ink = dict(entry.likelihood)
        for value in values:
            ink.setdefault(value, entry.probability(value))
        return ink
    spelling = entry.spelling
    return {value: spelling.probability(value) for value in [*entry.likeliest, *values]}
