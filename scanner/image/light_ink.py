"""Ink far lighter than its writer's: the print beside a box, not writing.

A box's window reaches :data:`~scanner.constants.INK_SPILL_MM` past its border to keep a
writer's strokes that go over it, so it also takes in what is printed near the box: a
column's caption (``висты на B`` under the first whists boxes), a line of the drawing beside
it. Each window's contrast is normalised to its own darkest ink, so such print, light on a
far photo, is cut out as strokes and read as a digit: a caption read 4 and 8 before a
written 2 (482), a line's remnant read 1 before 58 (158). A writer's hand is about as dark
in every box of a page, so a digit box whose own strokes reach into its interior, and are
there, at their darkest pixel (:attr:`CellImage.stroke_darkness`), under
:data:`LIGHT_INK_SHARE` of the median of its writer's boxes with ink on the page, is taken
for print: read empty, as a speck is (:data:`LIGHT_EMPTY_PROBABILITY`), its digits kept
beneath for the rules to weigh, and left out of its entry's strip. The darkest pixel, not
the interior's darkest ink at a percentile (:attr:`CellImage.darkness`): a lone thin "1"
covers few of the interior's pixels, and its percentile falls on its light edge (a trick's
1 on a grey pencil scan at 0.31 of its writer's). A box whose strokes lie wholly outside
its interior (a "1" drawn down the border line, given to the box beside it by
:mod:`scanner.image.lying`) has no interior ink to judge and is left as read. Not on a
black-and-white capture: there print and writing are both black, and where its strokes'
dots are joined (:data:`~scanner.constants.DOTS_JOIN_MM`) a thin "1" blurs lighter than
the other digits (TRAINING part, ballpoint thresholded, seed 185: three leading 1s lost).

So is a column's box whose strokes are that light against the page's noise
(:data:`NOISE_SHARE`): on a low-contrast photo the grain of its empty boxes passes the ink
floor and is cut out as strokes. Or against its writer's noise, where that is the higher:
a faint seat's boxes, cut again at the faint floors, take in the grain of the shadow over
its zone while the other seats' blank boxes, cut at the page's floors, hold nothing.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Hashable, Sequence

from forms.model import CalibrationCell, EntryCell
from scanner import constants as k
from scanner.image.cells import CellImage
from scanner.image.ink import page_noise

LIGHT_INK_SHARE = 0.5
"""A digit box is light when its strokes' darkest pixel inside its interior is under this
share of its writer's median (TRAINING part, phone-distant seeds 183, 186 and 187, 48 sheets,
9,187 boxes with ink: of the 166 boxes that hold no writing but read as a digit, 78 are
caught, 77 at 0.45, 83 at 0.6; no box of writing at 0.5, nine 1s at 0.6. Phone-steep,
flatbed-mono, phone-near and the old generator's sheets, seeds 188-190 and 192, 60 sheets:
4 print boxes read as digits caught, no writing; at 0.6 six 3s of one writer lost)."""
NOISE_SHARE = 1.35
"""... or, a column's box, under this many times the page's noise: the median, over the
page's column boxes, of each box's darkest ink (:attr:`CellImage.darkness`; most boxes hold
none, so it is the paper's grain, the JPEG's and a shadow's within a box). A pencil photo
at a steep angle with a shadow and a colour cast (TRAINING part, seed 195 sheet 008) has
empty boxes as dark as 0.16-0.19 of the paper, over the fine page's floor, read "233" and
"407" where nothing is written, its writer's pencil at 0.22-0.29. TRAINING part, seeds
193, 195, 197 and 199 (64 sheets, 6,044 column boxes with ink): 172 of the 361 boxes with
ink and no writing caught, one written box (a pencil 4 on a far photo, read 7 at 0.83);
1.2: 99 caught, 1.5: 217 and two written lost. The writer's noise beside the page's (seed
500 sheet 004: a steep pencil photo whose seat A, faint, was cut again: its blank boxes'
grain read "888" and "833"): sixteen TRAINING sets, seeds 499-514, 363 sheets read: blank
boxes asked 389 -> 321, doubtful fields 720 -> 708, silent 7 -> 6, fields right 99.45 ->
99.47 %."""
LIGHT_MIN_BOXES = 5
"""A writer's median is taken over this many of its boxes with ink on the page, or none."""
LIGHT_EMPTY_PROBABILITY = 0.99
"""The probability of EMPTY of a light box (a speck's,
:data:`~scanner.constants.EMPTY_PROBABILITY_AT_LIMIT`); its digits share the rest as read."""


def light_cells(cells: Sequence[CellImage], writer_of: Callable[[CellImage], Hashable]
                ) -> frozenset[int]:
    """The places in ``cells`` (a page's) of the digit boxes (calibration boxes left out)
    whose strokes reach their interior and are light there for their writer
    (``writer_of``): under :data:`LIGHT_INK_SHARE` of the median stroke darkness of that
    writer's boxes with ink (:data:`LIGHT_MIN_BOXES` or more); or, a column's box, light
    for the page or its writer's boxes: under :data:`NOISE_SHARE` times the higher of their
    noises (:func:`~scanner.image.ink.page_noise`, over the page's column boxes and over the
    writer's)."""
    inked = [i for i, c in enumerate(cells)
             if c.box.kind == "digit" and c.ink_fraction > k.EMPTY_MAX_INK_FRACTION]
    darkness: dict[Hashable, list[float]] = {}
    for i in inked:
        darkness.setdefault(writer_of(cells[i]), []).append(cells[i].stroke_darkness)
    least = {writer: LIGHT_INK_SHARE * statistics.median(values)
             for writer, values in darkness.items() if len(values) >= LIGHT_MIN_BOXES}
    page = page_noise((c.box, c.darkness) for c in cells)
    boxes_of: dict[Hashable, list[CellImage]] = {}
    for c in cells:
        boxes_of.setdefault(writer_of(c), []).append(c)
    noise = {writer: NOISE_SHARE * max(page, page_noise((c.box, c.darkness) for c in own))
             for writer, own in boxes_of.items()}
    return frozenset(i for i in inked
                     if not isinstance(cells[i].box.meaning, CalibrationCell)
                     and cells[i].cover > 0
                     and (cells[i].stroke_darkness < least.get(writer_of(cells[i]), 0.0)
                          or isinstance(cells[i].box.meaning, EntryCell)
                          and cells[i].stroke_darkness < noise[writer_of(cells[i])]))


def as_light(row: Sequence[float]) -> tuple[float, ...]:
    """A light box's probabilities: EMPTY at :data:`LIGHT_EMPTY_PROBABILITY`, the digits
    (the first ten of ``row``) sharing the rest in the proportions read.

    >>> as_light([0.9] + [0.0] * 9 + [0.1])[0], as_light([0.9] + [0.0] * 9 + [0.1])[10]
    (0.01, 0.99)
    """
    digits = row[:10]
    total = sum(digits)
    rest = 1.0 - LIGHT_EMPTY_PROBABILITY
    spread = [rest * p / total for p in digits] if total > 0 else [rest / 10] * 10
    return tuple([round(p, 6) for p in spread] + [LIGHT_EMPTY_PROBABILITY])
