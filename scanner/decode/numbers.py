"""From per-cell digit probabilities to candidate numbers, best first.

A number is written one digit per printed cell, its digits side by side, with empty cells before
or after it (a player may start at the left, end at the right or write in the middle); rarely a
blank cell lies between two of its digits (:data:`GAP_SHARE`: a "10" spread over three cells,
or a digit's stroke given to the cell beside it). The recognizer gives
each cell a probability for every digit and for "empty" (column 10). :func:`number_candidates`
returns the most likely readings of a group of cells with their probabilities, normalised over
all readings (legal or not), so that a probability is an honest "how sure".

>>> eight_or_six = [0.0] * 11; eight_or_six[8] = 0.7; eight_or_six[6] = 0.3
>>> one = [0.0] * 11; one[1] = 1.0
>>> empty = [0.0] * 11; empty[10] = 1.0
>>> [(c.value, round(c.probability, 2)) for c in number_candidates([one, eight_or_six, empty], 2)]
[(18, 0.7), (16, 0.3)]
>>> number_candidates([empty, empty])[0].value is None
True
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

EMPTY = 10
"""Index of the "empty" class in a recognizer's probability vector."""
PROBABILITY_FLOOR = 1e-6
"""No reading is impossible: a recognizer's zero becomes this (ink can surprise)."""
MISSED_DIGIT = 0.01
"""P(the reader finds a cell blank | a digit is written there), at least, as a share of the
cell's "empty" probability: a faint or thin digit (a 1, a 7) is sometimes not seen at all,
however sure the reader says it is. :func:`spelled_probability` weighs a value with a digit
there by this much, so the value the rules expect keeps a say; the ink's own readings
(:func:`number_candidates`) do not invent digits. TRAINING part, the boxes of written totals
read blank: 0.5-2.5 % held one of the total's digits on most captures, 12-15 % on far
pencil photos and thresholded ballpoint. Raised from 0.003 (one written digit in 400 on the
first sample sheets); 54 sets (seeds 271-347, 864 sheets) read again: right 59,057 ->
59,107, doubtful 2,488 -> 2,437, sheets with no person 337 -> 347, the same 7 silent."""
GAP_SHARE = 0.01
"""P(blank cells between two digits of a number | the number), per such gap: writers put a
number's digits side by side, but one spread over its cells, or a digit leaning so far that
its ink goes to the next cell, leaves one between them (TRAINING part: a "10" in three cells
read "1", blank, "0" made the rules' 10 doubtful, the ink saying "0")."""
STRIP_SHARE = 0.05
"""The weight of an entry's reading as one strip of glyphs beside its boxes' reading: the
strip speaks where the boxes spell a value far worse (a box holding a digit and a half)."""
STRIP_SURE_SHARE = 1.0
"""The strip's weight where each of its glyphs reads as a digit at :data:`STRIP_GLYPH_SURE`
at least and its reading is not the boxes' likeliest value: the boxes then cut the ink
otherwise than the writer wrote it, and the strip, which follows the ink, weighs as much.
Two digits crammed into one box (a "12" written in its units box, the 1 against the 2),
which the box reads as one digit and the strip as both (TRAINING part, 16 sets: on 13,240
written entries with a strip, the ink's likeliest value right 23 times more, wrong once
more; 29 sets read again: 14 right entries the rules read against such ink no longer
doubtful, 2 made doubtful, as many fields right, none silent more); and a digit leaning
over the boxes' divider (a "20" whose 2 stands half in the units box, that box read 2, the
entry 22 above a pool of 20). TRAINING part, 59 sets (46,256 written entries): where a
sure strip and the boxes read otherwise, the strip was right 278 times and the boxes 24
where the boxes' value held under 0.9 of their likelihood, 123 and 191 where it held more;
weighed so, the ink's likeliest value is the written one 221 times more (94.3 % of the
entries, against 93.8 %), as many read at 0.997 or more, 3 wrong ones fewer at 0.95."""
STRIP_GLYPH_SURE = 0.9
BEAM_WIDTH = 24
CLASS_RATIO_KEPT = 1e-5
"""A digit less likely than the cell's best class by this ratio is not tried in that cell."""
_DIGIT_TEXT = "0123456789"


@dataclass(frozen=True)
class NumberCandidate:
    """One reading of a group of cells: ``value`` is ``None`` when every cell is empty."""

    value: int | None
    probability: float
    text: str


def _log(p: float) -> float:
    return math.log(max(p, PROBABILITY_FLOOR))


CACHED_INPUTS = 4096
"""Distinct inputs whose answers :func:`number_candidates` and :func:`cell_spelling` (and the
deal rows' spelled values, :mod:`scanner.decode.deals`) remember. Many cells of a sheet are
blank, every one of them read as the same probabilities: the same question gets the same
answer, looked up."""


def number_candidates(cells: Sequence[Sequence[float]], limit: int = 8,
                      negative: float | None = None) -> list[NumberCandidate]:
    """The ``limit`` most likely numbers written in ``cells`` (left to right).

    ``negative`` is the probability that a printed sign cell holds a minus (a mountain may go
    below zero, Codex 4.1.1); ``None`` when the group has no sign cell.
    """
    return [NumberCandidate(value, probability, text) for value, probability, text
            in _number_candidates(tuple(map(tuple, cells)), limit, negative)]


def likeliest_values(cells: Sequence[Sequence[float]], limit: int = 8,
                     negative: float | None = None) -> list[int | None]:
    """The values of :func:`number_candidates`, in its order: all a caller weighing the
    values itself needs.

    >>> eight_or_six = [0.0] * 11; eight_or_six[8] = 0.7; eight_or_six[6] = 0.3
    >>> likeliest_values([eight_or_six], 3)
    [8, 6, None]
    """
    return [value for value, _, _ in _number_candidates(tuple(map(tuple, cells)), limit,
                                                         negative)]


_Candidate = tuple[int | None, float, str]
"""A :class:`NumberCandidate` as a plain tuple, its fields in the same order."""


@lru_cache(maxsize=CACHED_INPUTS, typed=True)
def _number_candidates(cells: tuple[tuple[float, ...], ...], limit: int,
                       negative: float | None) -> tuple[_Candidate, ...]:
    # beam over cells; state: (text so far, phase) with phase 0 = leading empties,
    # 1 = inside the digits, 2 = trailing empties
    beam: list[tuple[float, str, int]] = _first_grown(cells[0]) if cells else [(0.0, "", 0)]
    for probabilities in cells[1:]:
        beam = _grown(beam, probabilities)
    signs = [("", 1.0)] if negative is None else [("", 1 - negative), ("-", negative)]
    factors = [(sign, max(p_sign, PROBABILITY_FLOOR)) for sign, p_sign in signs]
    readings: dict[tuple[int | None, str], float] = {}
    for score, text, _ in beam:
        if len(text) > 1 and text[0] == "0":
            continue  # "07" is not how a total is written
        value = int(text) if text else None
        likelihood = math.exp(score)
        for sign, factor in factors:
            if sign and not value:
                continue
            reading = (-value if sign and value else value, sign + text)
            readings[reading] = readings.get(reading, 0.0) + likelihood * factor
    total = sum(readings.values()) or 1.0
    likeliest = sorted(readings.items(), key=lambda item: -item[1])[:limit]
    return tuple((number, p / total, written) for (number, written), p in likeliest)


def _first_grown(probabilities: Sequence[float]) -> list[tuple[float, str, int]]:
    """:func:`_grown` of the beam before the first cell (one state, nothing written): its
    growths sorted by score, in the order grown where they tie (a stable sort), none of them
    reached twice nor more of them than :data:`BEAM_WIDTH`."""
    grown = [(0.0 + _log(probabilities[EMPTY]), "", 0)]
    grown += [(0.0 + digit_log, _DIGIT_TEXT[digit], 1)
              for digit, digit_log in _likely_classes(probabilities)]
    grown.sort(key=lambda state: -state[0])
    return grown


def _grown(beam: list[tuple[float, str, int]], probabilities: Sequence[float]
           ) -> list[tuple[float, str, int]]:
    """The beam after one more cell: its :data:`BEAM_WIDTH` best states, best first.

    Each state grows by the cell read empty, then by each likely digit (a state in its
    trailing empties by a digit after a gap, :data:`GAP_SHARE`); a state reached twice
    keeps its best score, the first one grown on a tie, and states of equal score rank in
    the order grown. The beam is sorted best first, so each way of growing (empty, one
    digit, one digit after a gap) yields its states best first too: merging these streams
    gives the best states without growing all of them.
    """
    likely = _likely_classes(probabilities)
    empty_log = _log(probabilities[EMPTY])
    gap_log = math.log(GAP_SHARE)
    growing = [index for index, (_, _, phase) in enumerate(beam) if phase != 2]
    trailing = [index for index, (_, _, phase) in enumerate(beam) if phase == 2]
    # every state grows 1 + len(likely) ways: their order breaks ties
    first_grown = [index * (1 + len(likely)) for index in range(len(beam))]
    # stream 0: the cell read empty, from every state; then digit j of ``likely``, from
    # the states inside a number and, after a gap, from those in their trailing empties
    streams: list[tuple[float, int, Sequence[int], str]] = [
        (empty_log, 0, range(len(beam)), "")]
    streams += [(digit_log, 1 + j, growing, _DIGIT_TEXT[digit])
                for j, (digit, digit_log) in enumerate(likely)]
    streams += [(digit_log + gap_log, 1 + j, trailing, _DIGIT_TEXT[digit])
                for j, (digit, digit_log) in enumerate(likely)]
    heap = [(-(beam[states[0]][0] + added), first_grown[states[0]] + offset, k, 0)
            for k, (added, offset, states, _) in enumerate(streams) if states]
    heapq.heapify(heap)
    grown: list[tuple[float, str, int]] = []
    seen: set[tuple[str, int]] = set()
    while heap:
        negative_score, _, k, position = heap[0]
        added, offset, states, digit = streams[k]
        _, text, phase = beam[states[position]]
        state = (text + digit, 1) if k else (text, 0 if phase == 0 else 2)
        if state not in seen:  # a state reached again: its first, best, growth counts
            seen.add(state)
            grown.append((-negative_score, *state))
            if len(grown) == BEAM_WIDTH:
                break
        position += 1
        if position < len(states):  # the stream's next state takes its place in the heap
            i = states[position]
            heapq.heapreplace(heap, (-(beam[i][0] + added), first_grown[i] + offset, k,
                                     position))
        else:
            heapq.heappop(heap)
    return grown


def _likely_classes(probabilities: Sequence[float]) -> list[tuple[int, float]]:
    """The digits worth trying in a cell: within :data:`CLASS_RATIO_KEPT` of its best class."""
    least = max(probabilities) * CLASS_RATIO_KEPT
    return [(digit, math.log(p if p >= PROBABILITY_FLOOR else PROBABILITY_FLOOR))
            for digit, p in enumerate(probabilities[:EMPTY]) if p >= least]


def spelled_probability(cells: Sequence[Sequence[float]], value: int | None,
                        minus: float | None = None) -> float:
    """P(ink | value): the cells hold exactly this number, in any of their places
    (:func:`_spelled_from`).

    >>> one = [0.0] * 11; one[1] = 1.0
    >>> empty = [0.0] * 11; empty[10] = 1.0
    >>> spelled_probability([empty, one], 1), spelled_probability([one, empty], 1)
    (1.0, 1.0)
    """
    return _spelled_from(*_cell_factors(cells), value, minus)


def spelled_probabilities(cells: Sequence[Sequence[float]], values: Sequence[int | None],
                          minus: float | None = None) -> list[float]:
    """:func:`spelled_probability` of each of ``values``: the same numbers, the cells taken
    as they are (not looked up: a caller asking about every value asks once).

    >>> one = [0.0] * 11; one[1] = 1.0
    >>> empty = [0.0] * 11; empty[10] = 1.0
    >>> spelled_probabilities([empty, one], [1, 11, None])
    [1.0, 0.01, 1e-06]
    """
    empty, written = _cell_factors(cells)
    return [_spelled_from(empty, written, value, minus) for value in values]


class CellSpelling:
    """P(ink | value) of one group of cells, value by value (:func:`spelled_probability`),
    the cells' factors (:func:`_cell_factors`) worked out once and each value's answer
    remembered: a sheet's decoding asks about the same entry again for every deal reading
    it weighs.

    >>> one = [0.0] * 11; one[1] = 1.0
    >>> empty = [0.0] * 11; empty[10] = 1.0
    >>> CellSpelling([empty, one]).probability(1)
    1.0
    """

    def __init__(self, cells: Sequence[Sequence[float]], minus: float | None = None,
                 strip: Sequence[Sequence[float]] | None = None) -> None:
        self._empty, self._written = _cell_factors(cells)
        self._minus = minus
        self._strip = strip
        self._strip_share = strip_share(cells, strip, minus)
        self._known: dict[int | None, float] = {}
        self._logs: dict[int | None, float] = {}

    def probability(self, value: int | None) -> float:
        """P(ink | value): :func:`spelled_probability`, or the strip's
        (:func:`strip_probability`) where that is likelier."""
        known = self._known.get(value)
        if known is None:
            known = _spelled_from(self._empty, self._written, value, self._minus)
            if self._strip:
                known = max(known, self._strip_share * strip_probability(self._strip, value,
                                                                         self._minus))
            self._known[value] = known
        return known

    def log_probability(self, value: int | None) -> float:
        """The log of :meth:`probability`, remembered too (it is never below
        :data:`PROBABILITY_FLOOR`)."""
        known = self._logs.get(value)
        if known is None:
            known = self._logs[value] = math.log(max(self.probability(value),
                                                     PROBABILITY_FLOOR))
        return known


def strip_share(cells: Sequence[Sequence[float]], strip: Sequence[Sequence[float]] | None,
                minus: float | None = None) -> float:
    """The weight of an entry's strip reading beside its boxes': :data:`STRIP_SHARE`, or
    :data:`STRIP_SURE_SHARE` where each glyph of the strip is a digit at
    :data:`STRIP_GLYPH_SURE` and the strip reads another value than the boxes' likeliest.

    >>> one = [0.0] * 11; one[1] = 0.95; two = [0.0] * 11; two[2] = 0.99
    >>> empty = [0.0] * 11; empty[EMPTY] = 1.0
    >>> strip_share([empty, two], [one, two]), strip_share([one, two], [one, two])
    (1.0, 0.05)
    >>> strip_share([two, two], [two, [0.9 if d == 0 else 0.0 for d in range(11)]])
    1.0
    """
    if not strip or any(max(glyph[:EMPTY]) < STRIP_GLYPH_SURE for glyph in strip):
        return STRIP_SHARE
    boxes = likeliest_values(cells, negative=minus)
    return STRIP_SURE_SHARE if strip_values(strip, minus)[:1] != boxes[:1] else STRIP_SHARE


def cell_spelling(cells: Sequence[Sequence[float]], minus: float | None = None,
                  strip: Sequence[Sequence[float]] | None = None) -> CellSpelling:
    """The :class:`CellSpelling` of these cells, one for every group of cells that reads
    the same (looked up, as :func:`number_candidates` is): a sheet's blank entries read
    alike, and each answer is worked out once for all of them.

    >>> empty = [0.0] * 11; empty[10] = 1.0
    >>> cell_spelling([empty, empty]) is cell_spelling([tuple(empty)] * 2)
    True
    """
    return _shared_spelling(tuple(map(tuple, cells)), minus,
                            None if strip is None else tuple(map(tuple, strip)))


@lru_cache(maxsize=CACHED_INPUTS, typed=True)
def _shared_spelling(cells: tuple[tuple[float, ...], ...], minus: float | None,
                     strip: tuple[tuple[float, ...], ...] | None) -> CellSpelling:
    return CellSpelling(cells, minus, strip)


def strip_probability(strip: Sequence[Sequence[float]], value: int | None,
                      minus: float | None = None) -> float:
    """P(ink | value) of an entry read as one strip of glyphs
    (:mod:`scanner.image.strips`): each glyph is one of the value's digits, in order (0 for
    a value with another number of digits, or none).

    >>> one = [0.0] * 11; one[1] = 0.9; one[7] = 0.1
    >>> round(strip_probability([one, one], 11), 2), strip_probability([one, one], 1)
    (0.81, 0.0)
    """
    digits = () if value is None else _digits(value)
    if not digits or len(digits) != len(strip):
        return 0.0
    p = 1.0
    for glyph, digit in zip(strip, digits, strict=True):
        p *= max(glyph[digit], PROBABILITY_FLOOR)
    return p * _sign_factor(value, minus)


def strip_values(strip: Sequence[Sequence[float]] | None, minus: float | None = None
                 ) -> list[int]:
    """The values a strip reads likeliest: each glyph's likeliest digit, then each with one
    glyph's next likeliest (negative where the sign cell likely holds a minus).

    >>> one = [0.0] * 11; one[1] = 0.9; one[7] = 0.1
    >>> strip_values([one, one])
    [11, 71, 17]
    """
    if not strip:
        return []
    ranked = [sorted(range(EMPTY), key=lambda d: -glyph[d])[:2] for glyph in strip]
    readings = [[r[0] for r in ranked]]
    readings += [[r[1] if i == j else r[0] for i, r in enumerate(ranked)]
                 for j in range(len(ranked))]
    sign = -1 if minus is not None and minus > 0.5 else 1
    values = []
    for digits in readings:
        if len(digits) > 1 and digits[0] == 0:
            continue  # "07" is not how a total is written
        value = sign * int("".join(map(str, digits)))
        if value not in values:
            values.append(value)
    return values


def _cell_factors(cells: Sequence[Sequence[float]]) -> tuple[list[float], list[list[float]]]:
    """Each cell's factor when it holds nothing, and when it holds each digit (a digit the
    reader found blank keeps :data:`MISSED_DIGIT` of the blank's probability)."""
    empty = [max(probabilities[EMPTY], PROBABILITY_FLOOR) for probabilities in cells]
    written = []
    for probabilities in cells:
        least = max(MISSED_DIGIT * probabilities[EMPTY], PROBABILITY_FLOOR)
        written.append([p if p > least else least for p in probabilities[:EMPTY]])
    return empty, written


@lru_cache(maxsize=64)
def _placements(length: int, width: int
                ) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]:
    """Each way ``length`` digits may stand among ``width`` cells: the cells they stand in
    (in order), the cells left blank, and how many gaps lie between two of the digits.

    >>> _placements(2, 3)
    (((0, 1), (2,), 0), ((0, 2), (1,), 1), ((1, 2), (0,), 0))
    """
    return tuple((places, tuple(i for i in range(width) if i not in places),
                  sum(b > a + 1 for a, b in itertools.pairwise(places)))
                 for places in itertools.combinations(range(width), length))


@lru_cache(maxsize=CACHED_INPUTS)
def _digits(value: int) -> tuple[int, ...]:
    """The digits ``value`` is written with, left to right (a minus sign is not a digit)."""
    return tuple(int(c) for c in str(abs(value)))


def _spelled_from(empty: list[float], written: list[list[float]], value: int | None,
                  minus: float | None) -> float:
    """P(ink | value) from each cell's factors (:func:`_cell_factors`): ``empty[i]`` when
    cell ``i`` holds nothing, ``written[i][d]`` when it holds digit ``d``; the number's
    digits in the likeliest of the cells' places, in order, each gap (blank cells between
    two of them) weighed by :data:`GAP_SHARE`."""
    digits = () if value is None else _digits(value)
    length, width = len(digits), len(empty)
    if length > width:
        return PROBABILITY_FLOOR
    best = 0.0
    for places, blanks, gaps in _placements(length, width):
        p = GAP_SHARE ** gaps
        for digit, index in zip(digits, places, strict=True):
            p *= written[index][digit]
        for index in blanks:
            p *= empty[index]
        if p > best:
            best = p
    return max(best * _sign_factor(value, minus), PROBABILITY_FLOOR)


def _sign_factor(value: int | None, minus: float | None) -> float:
    """P(the sign cell's ink | the value's sign): ``minus`` is the probability that the
    entry's sign cell holds a minus (``None``: no sign cell, where no value is negative)."""
    negative = value is not None and value < 0
    if minus is None:
        return 0.0 if negative else 1.0
    return minus if negative else 1 - minus
