"""Stage 4, marks: each mark box is empty, marked or cancelled (filled solid).

The legend printed on every deal page shows the two: a cross is a mark, a box filled solid
(over a cross) is a mark taken back. Writers mark with crosses, ticks, plus signs and loops,
60-130 % of the box and off centre, so a mark is read from the box's own strokes as
:mod:`scanner.image.ink` cuts them (out to where they reach, a neighbour's spill given to the
neighbour) by two measures: its fill (its strokes' pixels over the box's interior: any mark
has some) and its cover (the share of the interior its strokes cover: only a filled box is
nearly covered). The two thresholds are found per page from its own boxes, so a thin pen, a
thick marker, a pencil or a grey photo each get their own, not global constants: marked
above the most ink the page's surely empty boxes hold (those a group's choice leaves clear,
:func:`empty_ceiling`), cancelled by Otsu's split of the inked boxes' covers. A page whose
marks are only the print's remnant (a deal page the game never reached, photographed from
afar) is judged again against the marks of the sheet's other pages (:func:`sheet_marks`):
one scorer marks them all; a box read marked but far lighter than the sheet's marks holds
only the remnant, its contrast stretched (:func:`_dark_enough`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from forms.model import Box, DealCell
from scanner import constants as k
from scanner.arrays import Doubles
from scanner.image.cells import CellImage

log = logging.getLogger(__name__)

MarkState = Literal["empty", "marked", "cancelled"]


@dataclass(frozen=True)
class MarkThresholds:
    """Fill shares that split empty from marked and marked from cancelled, for one sheet."""

    marked: float
    cancelled: float
    empty_scale: float | None = None
    """How far below :attr:`marked` an empty box's fill must lie to be sure it is empty: the
    spread of the page's own empty boxes (:func:`empty_scale`); ``None``: a share of
    :attr:`marked` alone, :data:`MARKED_SCALE_SHARE`."""


@dataclass(frozen=True)
class MarkReading:
    """One mark box read: its fill and cover, its state and how sure the reading is (0..1)."""

    box: Box
    fill: float
    cover: float
    darkness: float
    """How dark the box's darkest ink is (:attr:`scanner.image.cells.CellImage.darkness`)."""
    state: MarkState
    confidence: float


def _otsu(values: Doubles) -> float | None:
    """Otsu's threshold of a 1-D sample, or None when it has fewer than two distinct values."""
    v = np.sort(values)
    if len(v) < 2 or v[0] == v[-1]:
        return None
    best, best_t = -1.0, None
    total, total_sum = len(v), float(v.sum())
    cum = np.cumsum(v)
    for i in range(1, total):
        if v[i] == v[i - 1]:
            continue
        w0, w1 = i / total, 1 - i / total
        m0, m1 = cum[i - 1] / i, (total_sum - cum[i - 1]) / (total - i)
        between = w0 * w1 * (m0 - m1) ** 2
        if between > best:
            best, best_t = between, (v[i - 1] + v[i]) / 2
    return best_t


MARKED_SCALE_SHARE = 0.3
"""The confidence of a box's state falls to 0.5 at the empty/marked threshold and grows by
e-fold every this share of the threshold away from it (on the marked side always; on the
empty side when the page shows no spread of its own)."""
EMPTY_SCALE_MIN_SHARE = 0.1
"""The least the empty side's scale may be, as a share of the threshold: a box with no ink
on a page whose empty boxes all hold none is empty at 1 - 0.5 e^-10. Chosen on the TRAINING
part (a page's empty boxes hold exactly no ink on flatbed and near photos alike) and the
legacy profile, where no mark read empty was marked."""


def empty_scale(fills: Doubles, marked: float) -> float:
    """The empty side's scale: the spread (standard deviation) of the fills under the
    threshold, at least :data:`EMPTY_SCALE_MIN_SHARE` of the threshold and at most
    :data:`MARKED_SCALE_SHARE` of it (a noisy page is no less sure than before).

    >>> empty_scale(np.zeros(40), 0.06)
    0.006
    """
    below = fills[fills < marked]
    spread = float(below.std()) if len(below) >= 2 else MARKED_SCALE_SHARE * marked
    return round(min(max(spread, EMPTY_SCALE_MIN_SHARE * marked),
                     MARKED_SCALE_SHARE * marked), 6)


CHOICE_MARGIN = 1.1
"""A box is marked above this many times the most ink an empty box of its page holds
(:func:`empty_ceiling`)."""
CHOICE_SHARE = 0.5
"""... and at most this share of the median fill of the choices above that (a writer who
crossed two boxes of one group does not blind the page to its lighter marks)."""


def choice_group(box: Box) -> Hashable:
    """The mark group a box belongs to: one deal row's declarer, level, suit or result
    boxes, or one seat's call boxes; the writer crosses at most one box of a group."""
    meaning = box.meaning
    if not isinstance(meaning, DealCell):
        return box
    seat = meaning.option.split(":")[0] if meaning.field == "call" else ""
    return meaning.row, meaning.field, seat


def empty_ceiling(fills: Doubles, covers: Doubles, groups: Sequence[Hashable]
                  ) -> tuple[float, Doubles]:
    """The most ink a page's empty boxes hold, and the fills of the boxes that may be
    choices. In each mark group the box with most ink may be the writer's choice, and where
    that box is filled solid (a cancel) the next one too; every other box of the group is
    empty: the print's remnant, a speck, a neighbour's spill. A clean scan's empty boxes hold
    none, a far photo's up to 0.45, so the page itself says where marks begin."""
    lo_m, _ = k.MARKED_MIN_FILL_FRACTION
    solid = _cancel_threshold(covers[fills > lo_m])
    members: dict[Hashable, list[int]] = {}
    for index, group in enumerate(groups):
        members.setdefault(group, []).append(index)
    empty: list[float] = []
    chosen: list[float] = []
    for indices in members.values():
        ranked = sorted(indices, key=lambda i: -fills[i])
        kept = 2 if covers[ranked[0]] >= solid else 1
        chosen += [float(fills[i]) for i in ranked[:kept]]
        empty += [float(fills[i]) for i in ranked[kept:]]
    return max(empty, default=0.0), np.asarray(chosen, np.float64)


def mark_thresholds(fills: Sequence[float], covers: Sequence[float],
                    groups: Sequence[Hashable]) -> MarkThresholds:
    """Thresholds for one page from all its mark boxes' fills, covers and mark groups
    (:func:`choice_group`): marked above :data:`CHOICE_MARGIN` times the page's
    :func:`empty_ceiling` (within the bounds, and at most :data:`CHOICE_SHARE` of the
    choices' median fill above it); cancelled by :func:`_cancel_threshold`.

    >>> t = mark_thresholds([0.0] * 8 + [0.2, 0.9], [0.0] * 8 + [0.15, 0.95],
    ...                     ["a"] * 4 + ["b"] * 4 + ["a", "b"])
    >>> bool(0.03 <= t.marked < 0.2 and 0.15 < t.cancelled < 0.95)
    True
    """
    f = np.asarray(fills, np.float64)
    c = np.asarray(covers, np.float64)
    lo_m, hi_m = k.MARKED_MIN_FILL_FRACTION
    ceiling, chosen = empty_ceiling(f, c, groups)
    marked = min(max(CHOICE_MARGIN * ceiling, lo_m), hi_m)
    above = chosen[chosen > marked]
    if len(above):
        marked = max(lo_m, min(marked, CHOICE_SHARE * float(np.median(above))))
    return MarkThresholds(marked, _cancel_threshold(c[f > marked]), empty_scale(f, marked))


CANCEL_GAP = 0.15
"""The least gap of cover between a page's marks and its solid fills for a split to count."""
SOLID_COVER = 0.9
"""The cover a cancelled box reaches (filled solid, the legend's way) when the page's covers
show no plausible split: on the TRAINING part felt-tip zigzag scribbles and loops cover up to
0.82 of a box and the cancels over them 0.94 and more."""


def _cancel_threshold(upper: Doubles) -> float:
    """The marked/cancelled split of a page's inked boxes' covers ``upper``: Otsu's split
    between two real groups (a gap of :data:`CANCEL_GAP`) where fewer boxes lie above it
    than below (a cancel is a correction, rarer than a mark; otherwise the split is sought
    again above it), kept within the bounds; else the default, unless that would make most
    boxes cancelled (marks that cover much of their box), then :data:`SOLID_COVER`.

    >>> _cancel_threshold(np.array([0.07, 0.1] + [0.5, 0.6, 0.7, 0.8] * 10 + [0.95, 0.97]))
    0.9
    >>> _cancel_threshold(np.array([0.2, 0.25, 0.3] * 5 + [0.9, 0.95]))
    0.6
    """
    lo_c, hi_c = k.CANCELLED_MIN_FILL_FRACTION
    candidates = upper
    while len(candidates) >= 2:
        split = _otsu(candidates)
        below, above = candidates[candidates < (split or 0.0)], candidates[
            candidates > (split or 0.0)]
        if split is None or not len(below) or not len(above):
            break
        if (upper > split).sum() < (upper < split).sum():
            if above.min() - below.max() > CANCEL_GAP:
                return float(min(max(split, lo_c), hi_c))
            break
        candidates = above
    cancelled = k.CANCELLED_DEFAULT_FILL_FRACTION
    if (upper >= cancelled).sum() > (upper < cancelled).sum():
        return SOLID_COVER
    return cancelled


def _confidence(distance: float, scale: float) -> float:
    return round(1.0 - 0.5 * math.exp(-abs(distance) / scale), 6)


def _judge(fill: float, cover: float, thresholds: MarkThresholds) -> tuple[MarkState, float]:
    """The state a fill and cover read as, and how sure that is (0..1)."""
    near_empty = _confidence(fill - thresholds.marked, MARKED_SCALE_SHARE * thresholds.marked)
    if fill < thresholds.marked:
        scale = thresholds.empty_scale or MARKED_SCALE_SHARE * thresholds.marked
        return "empty", _confidence(fill - thresholds.marked, scale)
    if cover < thresholds.cancelled:
        return "marked", min(near_empty, _confidence(thresholds.cancelled - cover, 0.08))
    return "cancelled", _confidence(cover - thresholds.cancelled, 0.08)


def read_marks(cells: Sequence[CellImage],
               thresholds: MarkThresholds | None = None) -> tuple[MarkReading, ...]:
    """Read every mark box; thresholds default to those of these cells' own.

    Each distinct (fill, cover) is judged once: most boxes of a page hold no ink and read
    alike."""
    marks = [c for c in cells if c.box.kind == "mark"]
    if thresholds is None:
        thresholds = mark_thresholds([c.ink_fraction for c in marks], [c.cover for c in marks],
                                     [choice_group(c.box) for c in marks])
    judged: dict[tuple[float, float], tuple[MarkState, float]] = {}
    readings = []
    for cell in marks:
        key = (cell.ink_fraction, cell.cover)
        if key not in judged:
            judged[key] = _judge(*key, thresholds)
        readings.append(MarkReading(cell.box, round(key[0], 4), round(key[1], 4),
                                    round(cell.darkness, 4), *judged[key]))
    return tuple(readings)


NOISE_LEVEL_SHARE = 0.5
"""A page whose boxes read marked hold, at their median, less than this share of the fill
of the marks on the sheet's other pages holds none of the scorer's marks: its own split
found the print's remnant in empty boxes (a far photo of a deal page the game never reached
read every row as a phantom deal). It is judged again with its empty/marked threshold at
this share of the sheet's mark fill (:func:`sheet_marks`). TRAINING part (48 sheets, seeds 7
and 31): pages holding real marks reach 0.87 or more of the sheet's fill; the two pages of
remnant alone 0.11 and 0.30."""
SHEET_MARKS_MIN = 3
"""The least number of boxes a page must read marked for their fill to speak for the
scorer's marks (a deal row holds three or more)."""


def marked_fill(marks: Sequence[MarkReading]) -> float | None:
    """The median fill of a page's boxes read marked (``None``: under
    :data:`SHEET_MARKS_MIN` of them)."""
    fills = [m.fill for m in marks if m.state == "marked"]
    return float(np.median(fills)) if len(fills) >= SHEET_MARKS_MIN else None


MARK_DARKNESS_SHARE = 0.5
"""A box read marked whose darkest ink is lighter than this share of the sheet's marks'
(their median :attr:`MarkReading.darkness`) holds none of the scorer's marks: on a far photo
a box's contrast, stretched to its own darkest ink, makes an empty box's faint print remnant
fill it as much as a mark (TRAINING seed 129, sheet 006: empty boxes' fills up to 0.49,
plus signs' from 0.32), but the remnant stays light (darkness under 0.4 in nine empty boxes
of ten, the marks 0.68 and more). On 636 TRAINING sheets of 40 sets, mostly phone photos:
empty boxes read marked 434 -> 117, no mark lost more (at 0.7 marks start to be lost)."""


def sheet_marks(pages: Sequence[tuple[MarkReading, ...]]) -> list[tuple[MarkReading, ...]]:
    """Each page's marks, those of a page whose marked boxes are far fainter than the
    sheet's marks (:data:`NOISE_LEVEL_SHARE` of the fill of the page whose marks fill most)
    judged again against the sheet's, then every box read marked but far lighter than the
    sheet's marks (:func:`_dark_enough`) read empty: the scorer's pen is the same on every
    page, the remnant of the print is not a mark."""
    levels = [marked_fill(marks) for marks in pages]
    reference = max((level for level in levels if level is not None), default=None)
    if reference is None:
        return list(pages)
    return _dark_enough([marks if level is None or level >= NOISE_LEVEL_SHARE * reference
                         else _judged_again(marks, NOISE_LEVEL_SHARE * reference)
                         for marks, level in zip(pages, levels, strict=True)])


def _dark_enough(pages: list[tuple[MarkReading, ...]]) -> list[tuple[MarkReading, ...]]:
    """``pages``' marks with each box read marked whose darkness is under
    :data:`MARK_DARKNESS_SHARE` of the median darkness of the sheet's boxes read marked
    (:data:`SHEET_MARKS_MIN` of them or more) read empty, the surer the lighter it is."""
    darkness = [m.darkness for marks in pages for m in marks if m.state == "marked"]
    if len(darkness) < SHEET_MARKS_MIN:
        return pages
    least = MARK_DARKNESS_SHARE * float(np.median(darkness))
    scale = MARKED_SCALE_SHARE * least
    return [tuple(replace(m, state="empty", confidence=_confidence(least - m.darkness, scale))
                  if m.state == "marked" and m.darkness < least else m for m in marks)
            for marks in pages]


def _judged_again(marks: tuple[MarkReading, ...], marked: float) -> tuple[MarkReading, ...]:
    """``marks`` judged with the empty/marked threshold raised to ``marked`` (the page's own
    marked/cancelled split kept, the empty side's scale from its fills under ``marked``)."""
    own = mark_thresholds([m.fill for m in marks], [m.cover for m in marks],
                          [choice_group(m.box) for m in marks])
    fills = np.array([m.fill for m in marks], np.float64)
    thresholds = MarkThresholds(max(marked, own.marked), own.cancelled,
                                empty_scale(fills, max(marked, own.marked)))
    judged = []
    for mark in marks:
        state, confidence = _judge(mark.fill, mark.cover, thresholds)
        judged.append(replace(mark, state=state, confidence=confidence))
    return tuple(judged)
